import type { Element } from 'domhandler';
import { WEEKDAYS, type ScheduleData, type ScheduleDay, type Weekday } from '../contract/browse.js';
import { parseScheduledCard } from './cards/scheduledCard.js';
import { LayoutChangedError } from './errors.js';
import { allWithin, headingIn, listingMarkup, loadMainColumn } from './scope.js';
import type { ParsedPage } from './types.js';
import { elementText, firstMatch } from './walk.js';

// Day names of English (anichin.cafe) and Indonesian installs, for blocks without a `sch_<day>` class.
const DAY_NAMES: Record<string, Weekday> = {
  monday: 'monday',
  senin: 'monday',
  tuesday: 'tuesday',
  selasa: 'tuesday',
  wednesday: 'wednesday',
  rabu: 'wednesday',
  thursday: 'thursday',
  kamis: 'thursday',
  friday: 'friday',
  jumat: 'friday',
  "jum'at": 'friday',
  saturday: 'saturday',
  sabtu: 'saturday',
  sunday: 'sunday',
  minggu: 'sunday',
  ahad: 'sunday',
};

/** `/schedule/`: one `div.schedulepage.sch_<day>` block per weekday, returned Monday first. */
export function parseSchedulePage(html: string, pageUrl: string): ParsedPage<ScheduleData> {
  const { $, main } = loadMainColumn(listingMarkup(html));
  const days: ScheduleDay[] = [];
  for (const block of allWithin(main, (_el, classes) => classes.includes('schedulepage'))) {
    const label = elementText($, headingOf(block));
    const day = dayOf(block, label);
    if (day === null) continue;
    const items = allWithin($(block), (_el, classes) => classes.includes('bs')).flatMap((el) => parseScheduledCard($, el, pageUrl) ?? []);
    days.push({ day, label: label || day, items });
  }
  if (days.every((day) => day.items.length === 0)) throw new LayoutChangedError('schedule', days.length === 0 ? ['days'] : ['days.items']);
  days.sort((a, b) => WEEKDAYS.indexOf(a.day) - WEEKDAYS.indexOf(b.day));
  const missing = WEEKDAYS.filter((weekday) => !days.some((day) => day.day === weekday)).map((weekday) => `days.${weekday}`);
  return { data: { days }, pagination: null, missing };
}

/** The heading of the block's first `.releases` header. */
function headingOf(block: Element): Element | undefined {
  const header = firstMatch(block, (_el, classes) => classes.includes('releases'));
  return header === undefined ? undefined : headingIn(header);
}

function dayOf(block: Element, label: string): Weekday | null {
  const fromClass = /(?:^|\s)sch_([a-z]+)(?:\s|$)/.exec(block.attribs['class'] ?? '')?.[1];
  return DAY_NAMES[fromClass ?? ''] ?? DAY_NAMES[label.toLowerCase()] ?? null;
}
