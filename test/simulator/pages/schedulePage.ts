import { scheduleByDay } from '../listings.js';
import { SITE_NAME, SITE_NOW } from '../dataset.js';
import type { ScheduleEntry, Weekday } from '../taxonomies.js';
import { catalogOf, seriesUrl, type PageContext } from './context.js';
import { attr, text } from './html.js';
import { posterImg } from './images.js';
import { layout } from './layout.js';

/**
 * `/schedule/`: one `div.schedulepage.sch_<day>` block per weekday, starting with
 * today (as the theme does), so parsers must order the days themselves. Entries use the card
 * skeleton on `div.bs`, with the countdown on `.epx` and the next episode in `.sb`.
 */

const LABELS: Record<Weekday, string> = {
  monday: 'Monday',
  tuesday: 'Tuesday',
  wednesday: 'Wednesday',
  thursday: 'Thursday',
  friday: 'Friday',
  saturday: 'Saturday',
  sunday: 'Sunday',
};

function entry(ctx: PageContext, item: ScheduleEntry, index: number): string {
  const now = Date.parse(SITE_NOW) / 1000;
  const epx =
    item.releaseAt === null
      ? `<span class="epx">${item.timeText}</span>`
      : `<span class="epx cndwn" data-cndwn="${item.releaseAt - now}" data-rlsdt="${item.releaseAt}">${item.timeText}</span>`;
  const sb = item.nextEpisode === null ? '??' : String(item.nextEpisode);
  return `<div class="bs">
<div class="bsx">
<a href="${seriesUrl(ctx, item.series)}" itemprop="url" title="${attr(item.series.title)}" class="tip">
<div class="limit">
<div class="ply"><i class="far fa-play-circle"></i></div>
<div class="bt">${epx}<span class="sb Sub">${sb}</span></div>
${posterImg(ctx, { path: item.series.poster, title: item.series.title, index })}
</div>
<div class="tt">${text(item.series.title)}</div>
</a>
</div>
</div>`;
}

export function schedulePage(ctx: PageContext): string {
  const days = scheduleByDay(catalogOf(ctx));
  const today = (new Date(Date.parse(SITE_NOW) + 7 * 3_600_000).getUTCDay() + 6) % 7;
  const blocks = [...days.slice(today), ...days.slice(0, today)].map(
    ({ day, entries }) => `<div class="bixbox schedulepage sch_${day}">
<div class="releases"><h3><span>${LABELS[day]}</span></h3></div>
<div class="listupd">
${entries.map((item, index) => entry(ctx, item, index)).join('\n')}
</div>
</div>`,
  );
  return layout(ctx, {
    title: `Schedule - ${SITE_NAME}`,
    canonical: `${ctx.origin}/schedule/`,
    bodyClass: 'page-template page-template-schedule page',
    main: blocks.join('\n'),
  });
}
