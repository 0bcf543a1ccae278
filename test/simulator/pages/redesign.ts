/**
 * The `layout-change` fault: the same page after a theme redesign (a "card-grid" design).
 * Text, links and images stay; every class, id, element and attribute the AnimeStream theme is
 * known by is renamed, microdata is dropped, the quick filter's `genre[]` field and the `/genres/`
 * taxonomy base change. Nothing a theme-specific selector looks for is left.
 */

const CLASS_RENAMES: Readonly<Record<string, string>> = {
  bs: 'card',
  bsx: 'card-body',
  tip: 'card-link',
  limit: 'card-media',
  tt: 'card-caption',
  typez: 'card-kind',
  epx: 'card-ep',
  sb: 'card-lang',
  bt: 'card-meta',
  ply: 'card-play',
  hotbadge: 'card-hot',
  status: 'card-state',
  listupd: 'card-grid',
  excstf: 'grid-row',
  popconslide: 'grid-row',
  normal: 'grid-normal',
  popularslider: 'grid-slide',
  hpage: 'pager',
  l: 'pager-prev',
  r: 'pager-next',
  pagination: 'page-nav',
  'page-numbers': 'page-link',
  prev: 'page-prev',
  next: 'page-next',
  current: 'is-current',
  dots: 'gap',
  bixbox: 'block',
  bbnofrm: 'block-flat',
  bixboxarc: 'block-archive',
  releases: 'block-head',
  hothome: 'trending',
  latesthome: 'fresh',
  vl: 'more',
  'series-gen': 'picks',
  'nav-tabs': 'picks-tabs',
  'tab-content': 'picks-panes',
  'tab-pane': 'picks-pane',
  'swiper-slide': 'hero-slide',
  'swiper-wrapper': 'hero-track',
  'swiper-container': 'hero',
  item: 'hero-item',
  backdrop: 'hero-bg',
  info: 'hero-info',
  watch: 'hero-cta',
  quickfilter: 'finder',
  filters: 'finder-form',
  advancedsearch: 'finder-wrap',
  filter: 'finder-field',
  mrgn: 'list-wrap',
  sec1: 'finder-fields',
  sec2: 'finder-actions',
  'dropdown-menu': 'finder-options',
  section: 'widget',
  serieslist: 'rank-list',
  pop: 'rank-pop',
  wpop: 'rank',
  'wpop-weekly': 'rank-week',
  'wpop-monthly': 'rank-month',
  'wpop-alltime': 'rank-all',
  ctr: 'rank-no',
  imgseries: 'rank-thumb',
  leftseries: 'rank-info',
  series: 'rank-link',
  rt: 'score',
  rating: 'score-bar',
  'rating-prc': 'score-pct',
  numscore: 'score-num',
  'ts-wpop-series-gen': 'rank-head',
  'ts-wpop-nav-tabs': 'rank-tabs',
  'ts-wpop-tab': 'rank-tab',
  'ts-ajax-cache': 'lazy-widget',
  ongoingseries: 'airing',
  genre: 'tag-cloud',
  mseason: 'season-box',
  season: 'season-list',
  'ts-post-image': 'thumb',
  'wp-post-image': 'thumb-img',
  lazyload: 'lazy',
  animefull: 'title-box',
  bigcontent: 'title-main',
  infox: 'title-info',
  spe: 'facts',
  eplister: 'ep-list',
  megavid: 'player-box',
  mirror: 'player-pick',
  episodelist: 'ep-strip',
  soraddlx: 'dl-box',
  newseason: 'season-grid',
  card: 'tile',
  'card-box': 'tile-body',
  schedulepage: 'day-block',
  lista: 'letters',
};

const ID_RENAMES: Readonly<Record<string, string>> = {
  slidertwo: 'hero',
  sidebar: 'aside',
  'wpop-items': 'rank-items',
  content: 'page',
  footer: 'site-foot',
  filtercount: 'finder-count',
};

function renameTokens(value: string): string {
  return value
    .split(/\s+/)
    .map((token) => CLASS_RENAMES[token] ?? token)
    .join(' ');
}

export function redesign(html: string): string {
  return html
    .replace(/ class="([^"]*)"/g, (_, value: string) => ` class="${renameTokens(value)}"`)
    .replace(/ id="([^"]*)"/g, (_, value: string) => ` id="${ID_RENAMES[value] ?? value.replace(/^series-/, 'pick-')}"`)
    .replace(/href="#series-/g, 'href="#pick-')
    .replace(/ item(?:prop|scope|type)(?:="[^"]*")?/g, '')
    .replace(/<(\/?)article\b/g, '<$1div')
    .replace(/<(\/?)center\b/g, '<$1div')
    .replace(/name="genre\[\]"/g, 'name="g[]"')
    .replace(/\/genres\//g, '/kategori/');
}
