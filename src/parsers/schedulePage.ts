import { load } from 'cheerio/slim';
import type { Element } from 'domhandler';
import { WEEKDAYS, type ScheduleData, type ScheduleDay, type Weekday } from '../contract/browse.js';
import { parseScheduledCard } from './cards/scheduledCard.js';
import { LayoutChangedError } from './errors.js';
import { mainColumn, mainColumnMarkup, within } from './scope.js';
import { cleanText } from './text.js';
import type { ParsedPage } from './types.js';

// Day names of English (anichin.cafe) and Indonesian installs, for blocks without a `sch_<day>` class.
const DAY_NAMES: Record<string, Weekday> = {
  monday: 'monday', senin: 'monday',
  tuesday: 'tuesday', selasa: 'tuesday',
  wednesday: 'wednesday', rabu: 'wednesday',
  thursday: 'thursday', kamis: 'thursday',
  friday: 'friday', jumat: 'friday', "jum'at": 'friday',
  saturday: 'saturday', sabtu: 'saturday',
  sunday: 'sunday', minggu: 'sunday', ahad: 'sunday',
};

/** `/schedule/`: one `div.schedulepage.sch_<day>` block per weekday (research 2.11), returned Monday first. */
export function parseSchedulePage(html: string, pageUrl: string): ParsedPage<ScheduleData> {
  const $ = load(mainColumnMarkup(html));
  const days: ScheduleDay[] = [];
  for (const block of within(mainColumn($), '.schedulepage').toArray()) {
    const label = cleanText($(block).find('.releases').first().find('h1, h2, h3, h4').first().text());
    const day = dayOf(block, label);
    if (day === null) continue;
    const items = within($(block), '.bs').toArray().flatMap((el) => parseScheduledCard($, el, pageUrl) ?? []);
    days.push({ day, label: label || day, items });
  }
  if (days.every((day) => day.items.length === 0))
    throw new LayoutChangedError('schedule', days.length === 0 ? ['days'] : ['days.items']);
  days.sort((a, b) => WEEKDAYS.indexOf(a.day) - WEEKDAYS.indexOf(b.day));
  const missing = WEEKDAYS.filter((weekday) => !days.some((day) => day.day === weekday)).map((weekday) => `days.${weekday}`);
  return { data: { days }, pagination: null, missing };
}

function dayOf(block: Element, label: string): Weekday | null {
  const fromClass = /(?:^|\s)sch_([a-z]+)(?:\s|$)/.exec(block.attribs['class'] ?? '')?.[1];
  return DAY_NAMES[fromClass ?? ''] ?? DAY_NAMES[label.toLowerCase()] ?? null;
}
