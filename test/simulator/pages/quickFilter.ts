import { quickFilterGenres } from '../catalog.js';
import { SEASONS, STUDIOS, type Term } from '../dataset.js';
import type { PageContext } from './context.js';
import { attr, text } from './html.js';

/**
 * The theme's quick filter form (sidebar on every page, and on the series list). Dropdown order is
 * fixed (genre, season, studio, status, type, [sub], order): some scrapers index into it.
 */

/** Current values, to mark the checked radios on the series list. */
export interface FilterSelection {
  readonly status?: string;
  readonly type?: string;
  readonly sub?: string;
  readonly order?: string;
}

type Option = readonly [value: string, label: string];

const STATUS_OPTIONS: readonly Option[] = [
  ['', 'All'],
  ['ongoing', 'Ongoing'],
  ['completed', 'Completed'],
  ['upcoming', 'Upcoming'],
  ['hiatus', 'Hiatus'],
];
const TYPE_OPTIONS: readonly Option[] = [
  ['', 'All'],
  ['anime', 'Anime'],
  ['ova', 'OVA'],
  ['movie', 'Movie'],
  ['live action', 'Live Action'],
  ['special', 'Special'],
  ['bd', 'BD'],
  ['ona', 'ONA'],
  ['music', 'Music'],
  ['donghua', 'Donghua'],
];
const SUB_OPTIONS: readonly Option[] = [
  ['', 'All'],
  ['sub', 'Sub'],
  ['dub', 'Dub'],
  ['raw', 'RAW'],
];
const ORDER_OPTIONS: readonly Option[] = [
  ['', 'Default'],
  ['title', 'A-Z'],
  ['titlereverse', 'Z-A'],
  ['update', 'Latest Update'],
  ['latest', 'Latest Added'],
  ['popular', 'Popular'],
  ['rating', 'Rating'],
];

function inputId(name: string, value: string): string {
  return `${name}-${value === '' ? 'all' : value.replace(/\s+/g, '-')}`;
}

function dropdown(label: string, count: string, menuClass: string, items: readonly string[]): string {
  return `<div class="filter dropdown">
<button type="button" class="dropdown-toggle" data-toggle="dropdown">${label} <span id="filtercount">${count}</span> <i class="fa fa-angle-down" aria-hidden="true"></i></button>
<ul class="dropdown-menu ${menuClass}">
${items.join('\n')}
</ul>
</div>`;
}

function checkboxes(name: string, terms: readonly Term[]): string[] {
  return terms.map((term) => {
    const id = `${name}-${term.slug}`;
    return `<li><input class="${name}-item" type="checkbox" id="${id}" name="${name}[]" value="${term.slug}"><label for="${id}">${text(term.name)}</label></li>`;
  });
}

function radios(name: string, options: readonly Option[], selected: string | undefined): string[] {
  const current = (selected ?? '').toLowerCase();
  return options.map(([value, label]) => {
    const id = inputId(name, value);
    const checked = value === current ? ' checked="checked"' : '';
    return `<li><input class="misc-item" type="radio" id="${id}" name="${name}" value="${attr(value)}"${checked}><label for="${id}">${label}</label></li>`;
  });
}

export function quickFilterForm(ctx: PageContext, selection: FilterSelection = {}): string {
  const action = `${ctx.origin}${ctx.variant.listPath.replace(/\/$/, '')}`;
  const sub = ctx.variant.subFilter ? dropdown('Sub', 'All', 'c1', radios('sub', SUB_OPTIONS, selection.sub)) : '<!-- sub -->';
  return `<div class="quickfilter">
<form action="${action}" class="filters" method="GET">
<span class="sec1">
${dropdown('Genre', 'All', 'c4 scrollz', checkboxes('genre', quickFilterGenres()))}
${dropdown('Season', 'All', 'c4 scrollz', checkboxes('season', SEASONS))}
${dropdown('Studio', 'All', 'c4 scrollz', checkboxes('studio', STUDIOS))}
${dropdown('Status', 'All', 'c1', radios('status', STATUS_OPTIONS, selection.status))}
${dropdown('Type', 'All', 'c1', radios('type', TYPE_OPTIONS, selection.type))}
${sub}
${dropdown('Order by', 'Default', 'c1', radios('order', ORDER_OPTIONS, selection.order))}
</span>
<span class="sec2">
<div class="filter submit"><button type="submit" class="btn btn-custom-search"><i class="fas fa-search" aria-hidden="true"></i> Search</button></div>
</span>
</form>
</div>`;
}
