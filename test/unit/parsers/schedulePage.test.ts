import { describe, expect, it } from 'vitest';
import { parseSchedulePage } from '../../../src/parsers/schedulePage.js';
import { loadFixture } from './fixture.js';

describe('parseSchedulePage', () => {
  it('parses one block per weekday: countdown timestamps as ISO, "??" as null, "Released" without a time', () => {
    const fixture = loadFixture('schedule', 'week');
    expect(parseSchedulePage(fixture.html, fixture.pageUrl)).toEqual(fixture.expected);
  });

  it('reads the weekday from an Indonesian label when the block has no sch_<day> class, and reports a missing day', () => {
    const fixture = loadFixture('schedule', 'week');
    const html = fixture.html
      .replace(
        '<div class="bixbox schedulepage sch_friday">\n<div class="releases"><h3><span>Friday</span>',
        '<div class="bixbox schedulepage">\n<div class="releases"><h3><span>Jumat</span>',
      )
      .replace(/<div class="bixbox schedulepage sch_sunday">[\s\S]*?<\/div>\n<\/div>\n<\/div>/, '');
    const parsed = parseSchedulePage(html, fixture.pageUrl);
    expect(parsed.data.days.map((day) => [day.day, day.label])).toEqual([
      ['monday', 'Monday'],
      ['tuesday', 'Tuesday'],
      ['wednesday', 'Wednesday'],
      ['thursday', 'Thursday'],
      ['friday', 'Jumat'],
      ['saturday', 'Saturday'],
    ]);
    expect(parsed.missing).toEqual(['days.sunday']);
  });

  it('calls a page without schedule blocks a layout change', () => {
    const fixture = loadFixture('schedule', 'week');
    const html = fixture.html.replace(/schedulepage/g, 'weekblock');
    expect(() => parseSchedulePage(html, fixture.pageUrl)).toThrow(
      expect.objectContaining({ name: 'LayoutChangedError', pageKind: 'schedule', missing: ['days'] }),
    );
  });
});
