import { SITE_NAME } from '../dataset.js';
import type { PageContext } from './context.js';
import { attr } from './html.js';

/**
 * `<head>` as a WordPress 6.9 + AnimeStream 2.2.6 install prints it: SEO plugin meta, JSON-LD,
 * block-library and global-styles CSS, theme assets and an inline JSON config. Most of a real
 * page's weight is here and in the footer scripts.
 */

export interface HeadInput {
  readonly title: string;
  readonly canonical: string | null;
}

const PRESET_COLORS = [
  'black',
  'cyan-bluish-gray',
  'white',
  'pale-pink',
  'vivid-red',
  'luminous-vivid-orange',
  'luminous-vivid-amber',
  'light-green-cyan',
  'vivid-green-cyan',
  'pale-cyan-blue',
  'vivid-cyan-blue',
  'vivid-purple',
  'ts-primary',
  'ts-secondary',
  'ts-dark',
  'ts-darker',
  'ts-light',
  'ts-accent',
  'ts-muted',
  'ts-border',
];
const PRESET_SIZES = ['small', 'medium', 'large', 'x-large', 'xx-large'];
const SPACINGS = ['20', '30', '40', '50', '60', '70', '80'];

function hex(index: number): string {
  return `#${((index * 2654435761) >>> 8).toString(16).padStart(6, '0').slice(0, 6)}`;
}

/** WordPress's global-styles block: one variable and three utility classes per preset; the same on every page, so built once. */
const GLOBAL_STYLES = ((): string => {
  const vars = [
    ...PRESET_COLORS.map((name, index) => `--wp--preset--color--${name}: ${hex(index + 1)};`),
    ...PRESET_COLORS.map(
      (name, index) =>
        `--wp--preset--gradient--${name}-to-${PRESET_COLORS[(index + 3) % PRESET_COLORS.length]}: linear-gradient(135deg,${hex(index + 7)} 0%,${hex(index + 11)} 100%);`,
    ),
    ...PRESET_SIZES.map((name, index) => `--wp--preset--font-size--${name}: ${13 + index * 5}px;`),
    ...SPACINGS.map((step, index) => `--wp--preset--spacing--${step}: ${(0.44 * 1.5 ** index).toFixed(2)}rem;`),
  ];
  const rules = [
    ...PRESET_COLORS.flatMap((name) => [
      `.has-${name}-color{color: var(--wp--preset--color--${name}) !important;}`,
      `.has-${name}-background-color{background-color: var(--wp--preset--color--${name}) !important;}`,
      `.has-${name}-border-color{border-color: var(--wp--preset--color--${name}) !important;}`,
      `.has-${name}-gradient-background{background: var(--wp--preset--gradient--${name}) !important;}`,
    ]),
    ...PRESET_SIZES.map((name) => `.has-${name}-font-size{font-size: var(--wp--preset--font-size--${name}) !important;}`),
    ':where(.is-layout-flex){gap: 0.5em;}:where(.is-layout-grid){gap: 0.5em;}body .is-layout-flex{display: flex;}',
    '.is-layout-flex{flex-wrap: wrap;align-items: center;}.is-layout-flex > :is(*, div){margin: 0;}',
  ];
  return `<style id="global-styles-inline-css">\n:root{${vars.join('')}}\n${rules.join('\n')}\n</style>`;
})();

const THEME_SELECTORS = [
  '.bs .bsx',
  '.bs .bsx .limit',
  '.bs .bsx .tt',
  '.bs .bsx .typez',
  '.bs .bsx .bt .epx',
  '.bs .bsx .bt .sb',
  '.listupd',
  '.hpage a',
  '.pagination .page-numbers',
  '.serieslist ul li',
  '.serieslist .imgseries',
  '.serieslist .leftseries h4',
  '.ongoingseries ul li a',
  'ul.genre li a',
  '.quickfilter .filter',
  '.releases h3',
  '.releases h2',
  '.releases .vl',
  '.bixbox',
  '.announ',
  '#slidertwo .backdrop',
  '#slidertwo .info h2',
  '.th',
  '.footer-az .az-list li a',
  '.series-gen .nav-tabs li a',
  '.mseason .season li a',
];

/** The theme's colour customiser output, repeated for light and dark mode; the same on every page, so built once. */
const THEME_STYLES = ((): string => {
  const rules = ['', '.darkmode ', '.lightmode '].flatMap((mode, modeIndex) =>
    THEME_SELECTORS.map(
      (selector, index) =>
        `${mode}${selector}{color:${hex(modeIndex * 50 + index + 3)};background:${hex(modeIndex * 50 + index + 29)};border-color:${hex(index + 61)};transition:all .2s ease-in-out}`,
    ),
  );
  return `<style id="tsstyle-inline-css">\n${rules.join('\n')}\n</style>`;
})();

function schemaGraph(ctx: PageContext, input: HeadInput): string {
  const url = input.canonical ?? `${ctx.origin}/`;
  const graph = {
    '@context': 'https://schema.org',
    '@graph': [
      {
        '@type': 'Organization',
        '@id': `${ctx.origin}/#organization`,
        name: SITE_NAME,
        logo: { '@type': 'ImageObject', url: `${ctx.origin}/wp-content/uploads/2023/06/logo.png` },
      },
      {
        '@type': 'WebSite',
        '@id': `${ctx.origin}/#website`,
        url: `${ctx.origin}/`,
        name: SITE_NAME,
        publisher: { '@id': `${ctx.origin}/#organization` },
        inLanguage: 'en-US',
        potentialAction: {
          '@type': 'SearchAction',
          target: `${ctx.origin}/?s={search_term_string}`,
          'query-input': 'required name=search_term_string',
        },
      },
      {
        '@type': 'CollectionPage',
        '@id': `${url}#webpage`,
        url,
        name: input.title,
        isPartOf: { '@id': `${ctx.origin}/#website` },
        inLanguage: 'en-US',
      },
    ],
  };
  return `<script type="application/ld+json" class="rank-math-schema">${JSON.stringify(graph)}</script>`;
}

/** WordPress escapes slashes in localized script data. */
function wpJson(value: unknown): string {
  return JSON.stringify(value).replace(/\//g, '\\/');
}

function tsConfig(ctx: PageContext): string {
  const config = {
    ajaxUrl: `${ctx.origin}/wp-admin/admin-ajax.php`,
    siteUrl: `${ctx.origin}/`,
    seriesBase: ctx.variant.seriesBase,
    nonce: '6f1e2d3c4b',
    bookmark: { max: 500, text: { add: 'Bookmark', remove: 'Bookmarked' } },
    history: { enabled: true, max: 100 },
    darkmode: true,
    lazyload: true,
  };
  return `<script id="tsmain-js-extra">\nvar ts_configs = ${wpJson(config)};\n</script>`;
}

export function head(ctx: PageContext, input: HeadInput): string {
  const theme = `${ctx.origin}/wp-content/themes/animestream`;
  const pageUrl = input.canonical ?? `${ctx.origin}/`;
  const canonical = input.canonical === null ? '' : `<link rel="canonical" href="${input.canonical}" />`;
  return `<head>
<meta charset="UTF-8">
<meta name="viewport" content="width=device-width">
<meta name="theme-color" content="#16151d">
<meta name="msapplication-navbutton-color" content="#16151d">
<meta name="apple-mobile-web-app-status-bar-style" content="#16151d">
<link rel="profile" href="http://gmpg.org/xfn/11">
<title>${attr(input.title)}</title>
<meta name="description" content="Nonton donghua subtitle Indonesia terbaru, streaming dan download donghua sub indo gratis kualitas HD."/>
<meta name="robots" content="follow, index, max-snippet:-1, max-video-preview:-1, max-image-preview:large"/>
${canonical}
<meta property="og:locale" content="en_US" />
<meta property="og:type" content="website" />
<meta property="og:title" content="${attr(input.title)}" />
<meta property="og:url" content="${pageUrl}" />
<meta property="og:site_name" content="${SITE_NAME}" />
<meta property="og:image" content="${ctx.origin}/wp-content/uploads/2023/06/og-image.jpg" />
<meta name="twitter:card" content="summary_large_image" />
<meta name="twitter:title" content="${attr(input.title)}" />
${schemaGraph(ctx, input)}
<link rel="dns-prefetch" href="//fonts.googleapis.com" />
<link rel="alternate" type="application/rss+xml" title="${SITE_NAME} &raquo; Feed" href="${ctx.origin}/feed/" />
<link rel="alternate" type="application/rss+xml" title="${SITE_NAME} &raquo; Comments Feed" href="${ctx.origin}/comments/feed/" />
<link rel="stylesheet" id="wp-block-library-css" href="${ctx.origin}/wp-includes/css/dist/block-library/style.min.css?ver=6.9" type="text/css" media="all" />
<style id="classic-theme-styles-inline-css">
/*! This file is auto-generated */
.wp-block-button__link{color:#fff;background-color:#32373c;border-radius:9999px;box-shadow:none;text-decoration:none;padding:calc(.667em + 2px) calc(1.333em + 2px);font-size:1.125em}.wp-block-file__button{background:#32373c;color:#fff;text-decoration:none}
</style>
${GLOBAL_STYLES}
<link rel="stylesheet" id="style-css" href="${theme}/style.css?ver=2.2.6" type="text/css" media="all" />
<link rel="stylesheet" id="darkmode-css" href="${theme}/assets/css/darkmode.css?ver=2.2.6" type="text/css" media="all" />
<link rel="stylesheet" id="fontawesome-css" href="${theme}/assets/css/font-awesome.min.css?ver=5.15.4" type="text/css" media="all" />
<link rel="stylesheet" id="swiper-css" href="${theme}/assets/css/swiper-bundle.min.css?ver=8.4.5" type="text/css" media="all" />
<link rel="stylesheet" id="fonts-css" href="https://fonts.googleapis.com/css2?family=Fira+Sans:wght@400;500;600&amp;display=swap" type="text/css" media="all" />
${THEME_STYLES}
<script src="${ctx.origin}/wp-includes/js/jquery/jquery.min.js?ver=3.7.1" id="jquery-core-js"></script>
<script src="${ctx.origin}/wp-includes/js/jquery/jquery-migrate.min.js?ver=3.4.1" id="jquery-migrate-js"></script>
${tsConfig(ctx)}
<link rel="https://api.w.org/" href="${ctx.origin}/wp-json/" />
<link rel="EditURI" type="application/rsd+xml" title="RSD" href="${ctx.origin}/xmlrpc.php?rsd" />
<meta name="generator" content="WordPress 6.9" />
<link rel="icon" href="${ctx.origin}/wp-content/uploads/2023/06/cropped-favicon-32x32.png" sizes="32x32" />
<link rel="icon" href="${ctx.origin}/wp-content/uploads/2023/06/cropped-favicon-192x192.png" sizes="192x192" />
<link rel="apple-touch-icon" href="${ctx.origin}/wp-content/uploads/2023/06/cropped-favicon-180x180.png" />
<meta name="msapplication-TileImage" content="${ctx.origin}/wp-content/uploads/2023/06/cropped-favicon-270x270.png" />
<script src="https://anichin-team.example/js/disable-devtool.min.js" disable-devtool-auto="" data-url="https://anichin-team.example/"></script>
</head>`;
}
