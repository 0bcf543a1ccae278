import { load } from 'cheerio/slim';
import type { Genre } from '../contract/schemas.js';
import { LayoutChangedError } from './errors.js';
import { GENRE_WIDGET, parseQuickFilterGenres, parseWidgetOfPage } from './sidebar.js';
import type { ParsedPage } from './types.js';

/**
 * All genres, read from the home page: the sidebar "Genres" widget, or the quick-filter
 * checkboxes when the widget is gone (no dedicated genre-index page is known upstream).
 */
export function parseGenreList(html: string, pageUrl: string): ParsedPage<{ genres: Genre[] }> {
  const widget = parseWidgetOfPage(html, GENRE_WIDGET, pageUrl);
  if (widget.data.length > 0) return { data: { genres: widget.data }, pagination: null, missing: [] };
  const quickFilter = parseQuickFilterGenres(load(html), pageUrl);
  if (quickFilter.data.length === 0) throw new LayoutChangedError('genres', [...widget.missing, ...quickFilter.missing]);
  return { data: { genres: quickFilter.data }, pagination: null, missing: widget.missing };
}
