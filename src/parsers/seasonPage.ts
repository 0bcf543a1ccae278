import type { SeasonData } from '../contract/browse.js';
import { parseSeasonCard } from './cards/seasonCard.js';
import { LayoutChangedError } from './errors.js';
import { allWithin, listingMarkup, loadMainColumn } from './scope.js';
import { termOfPage } from './term.js';
import type { ParsedPage } from './types.js';

/** `/season/{slug}/`: the season's own card layout, every series on one page. */
export function parseSeasonPage(html: string, pageUrl: string): ParsedPage<SeasonData> {
  const { $, main } = loadMainColumn(listingMarkup(html));
  // The real site's season page puts its heading in `.newseason h1`; the theme's usual `.releases h1` is the fallback.
  const term = termOfPage(main, '.newseason h1', pageUrl, 'season') ?? termOfPage(main, '.releases h1', pageUrl, 'season');
  const series = allWithin(main, (el, classes) => el.name === 'div' && classes.includes('card')).flatMap(
    (card) => parseSeasonCard($, card, pageUrl) ?? [],
  );
  const missing = [...(term === null ? ['term'] : []), ...(series.length === 0 ? ['series'] : [])];
  // A season term the site shows always holds series (WordPress answers 404 for unknown terms).
  if (term === null || series.length === 0) throw new LayoutChangedError('season', missing);
  return { data: { term, series }, pagination: null, missing: [] };
}
