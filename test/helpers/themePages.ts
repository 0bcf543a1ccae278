// Whole pages of the theme as the three kinds of site serve them (upstream-structure.md §2.0, §2.8,
// §7): the head with its canonical, the nav's search form, an ad row, the main column, the sidebar
// (quick filter on most sites, the Popular Series widget) and the footer. The site's settings are
// what varies: where series live, whether links are relative, whether the quick filter is there.

export interface ThemeSite {
  /** The domain the site writes into its own links. */
  origin: string;
  /** "/seri/", "/anime/" or "/". */
  seriesPath: string;
  /** The quick filter's action as the site writes it; null for a site without the form. */
  filterAction: string | null;
  /** Links as "/slug/" rather than "https://site/slug/" (the later snapshot). */
  relativeLinks: boolean;
}

export const CAFE: ThemeSite = {
  origin: 'https://anichin.cafe',
  seriesPath: '/seri/',
  filterAction: 'https://anichin.cafe/seri',
  relativeLinks: false,
};
export const MOE: ThemeSite = { origin: 'https://anichin.moe', seriesPath: '/', filterAction: '/anime', relativeLinks: true };
export const SISTER: ThemeSite = { origin: 'https://donghuastream.org', seriesPath: '/anime/', filterAction: null, relativeLinks: false };

const link = (site: ThemeSite, path: string) => (site.relativeLinks ? path : `${site.origin}${path}`);
const seriesHref = (site: ThemeSite, slug: string) => link(site, `${site.seriesPath}${slug}/`);

function quickFilter(site: ThemeSite): string {
  if (site.filterAction === null) return '';
  return `<div class="section"><div class="quickfilter">
<form action="${site.filterAction}" class="filters" method="GET">
<span class="sec1"><div class="filter dropdown"><button type="button" class="dropdown-toggle" data-toggle="dropdown">Status <span id="filtercount">All</span></button>
<ul class="dropdown-menu c1"><li><input class="misc-item" type="radio" id="status-all" name="status" value="" checked="checked"><label for="status-all">All</label></li>
<li><input class="misc-item" type="radio" id="status-ongoing" name="status" value="ongoing"><label for="status-ongoing">Ongoing</label></li></ul></div>
<div class="filter dropdown"><ul class="dropdown-menu c1"><li><input class="misc-item" type="radio" id="order-popular" name="order" value="popular"><label for="order-popular">Popular</label></li></ul></div></span>
<span class="sec2"><div class="filter submit"><button type="submit" class="btn btn-custom-search"><i class="fas fa-search" aria-hidden="true"></i> Search</button></div></span>
</form></div></div>`;
}

function popularSeries(site: ThemeSite): string {
  const items = ['renegade-immortal', 'soul-land-2'].map(
    (
      slug,
      index,
    ) => `<li><div class="ctr">${index + 1}</div><div class="imgseries"><a class="series" href="${seriesHref(site, slug)}" rel="${1001 + index}"><img src="data:image/svg+xml;base64,PHN2Zy8+" data-src="https://i0.wp.com/anichin.cafe/wp-content/uploads/${slug}.jpg?resize=65,85" class="ts-post-image" width="65" height="85"></a></div>
<div class="leftseries"><h4><a class="series" href="${seriesHref(site, slug)}" rel="${1001 + index}">${slug}</a></h4><span><b>Genres</b>: <a href="${link(site, '/genres/action/')}" rel="tag">Action</a></span></div></li>`,
  );
  return `<div class="section"><div class="releases"><h3>Popular Series</h3></div><div class="serieslist pop wpop wpop-weekly"><ul>${items.join('\n')}</ul></div></div>`;
}

/** A whole page of `site` around `main` (the `div.postbody` column), with `canonical` as the site writes it. */
export function themePage(site: ThemeSite, main: string, canonicalPath: string, options: { sidebar?: boolean } = {}): string {
  return `<!DOCTYPE html><html lang="id"><head><meta charset="UTF-8">
<link rel="canonical" href="${link(site, canonicalPath)}" />
<link rel='stylesheet' href='${site.origin}/wp-content/themes/animestream/style.css?ver=2.2.6' />
<script>var ajaxurl = "${site.origin}/wp-admin/admin-ajax.php";</script>
</head><body class="darkmode styletwo">
<div class="th mngentwo"><div class="centernav bound"><div class="logos"><a href="${link(site, '/')}" title="Home"><img src="${site.origin}/wp-content/uploads/logo.png" alt="Home"></a></div>
<form action="${link(site, '/')}" id="form" method="get" itemprop="potentialAction"><input id="s" type="text" name="s" placeholder="Search..." autocomplete="off"></form>
<a class="surprise" href="${link(site, '/random')}">Random</a></div></div>
<div class="blox mlb kln"><a href="https://slot-gacor.example/?ref=anichin" rel="nofollow"><img src="https://cdn.example/ads/banner.gif" alt="ad"></a></div>
<div id="content"><div class="wrapper"><div class="announ">Bookmark ${site.origin}</div>
<div class="postbody">${main}</div>
<!--themesia cache start-->${options.sidebar === false ? '' : `<div id="sidebar">${quickFilter(site)}${popularSeries(site)}</div>`}<!--themesia cache end 2026-06-30-->
</div></div>
<div id="footer"><div class="footer-az"><ul class="az-list"><li><a href="${link(site, '/az-lists/?show=A')}">A</a></li></ul></div></div>
<script src="${site.origin}/wp-includes/js/jquery/jquery.min.js"></script></body></html>`;
}

/** The main column of a series page: breadcrumb (Home › Series) and the series box. */
export function seriesMain(site: ThemeSite, slug: string, title: string): string {
  return `<article id="post-77" class="post-77 hentry" itemscope="itemscope" itemtype="http://schema.org/CreativeWorkSeries">
<div class="ts-breadcrumb bixbox"><ol itemscope itemtype="http://schema.org/BreadcrumbList"><li itemprop="itemListElement" itemscope itemtype="http://schema.org/ListItem"><a itemprop="item" href="${link(site, '/')}"><span itemprop="name">Home</span></a></li> › <li itemprop="itemListElement" itemscope itemtype="http://schema.org/ListItem"><a itemprop="item" href="${seriesHref(site, slug)}"><span itemprop="name">${title}</span></a></li></ol></div>
<div class="bixbox animefull"><div class="bigcontent"><div class="infox"><h1 class="entry-title" itemprop="name">${title}</h1>
<div class="ninfo"><div class="info-content"><div class="spe"><span><b>Status:</b> Ongoing</span></div></div></div></div></div></div></article>`;
}

/** The main column of an episode post: breadcrumb (Home › Series › Episode) and the player. */
export function episodeMain(site: ThemeSite, seriesSlug: string, episodeSlug: string): string {
  return `<article id="post-90" class="post-90 post type-post hentry" itemscope="itemscope" itemtype="http://schema.org/Episode">
<div class="ts-breadcrumb bixbox"><ol itemscope itemtype="http://schema.org/BreadcrumbList"><li itemprop="itemListElement" itemscope itemtype="http://schema.org/ListItem"><a itemprop="item" href="${link(site, '/')}"><span itemprop="name">Home</span></a></li> › <li itemprop="itemListElement" itemscope itemtype="http://schema.org/ListItem"><a itemprop="item" href="${seriesHref(site, seriesSlug)}"><span itemprop="name">Series</span></a></li> › <li itemprop="itemListElement" itemscope itemtype="http://schema.org/ListItem"><a itemprop="item" href="${link(site, `/${episodeSlug}/`)}"><span itemprop="name">Episode</span></a></li></ol></div>
<div class="megavid"><div class="video-content"><div id="pembed"><iframe src="https://ok.ru/videoembed/1"></iframe></div></div></div></article>`;
}
