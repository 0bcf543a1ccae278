import { SITE_NAME } from '../dataset.js';
import { floatingAds, topAdRow } from './ads.js';
import { absolute, withProfileLinks, type PageContext } from './context.js';
import { head } from './head.js';
import { sidebar } from './sidebar.js';

/** The page chrome around every main column: nav, ad row, announcement, sidebar, footer. */

export interface LayoutInput {
  readonly title: string;
  readonly canonical: string | null;
  /** WordPress body classes of the page kind, e.g. "home blog". */
  readonly bodyClass: string;
  /** Contents of `div.postbody`. */
  readonly main: string;
}

const MENU: readonly (readonly [label: string, path: string, children?: readonly (readonly [string, string])[]])[] = [
  ['Home', '/'],
  [
    'Donghua',
    '#',
    [
      ['Ongoing', '/ongoing/'],
      ['Completed', '/completed/'],
      ['Movie', '/anime/?status=&type=Movie&order=update'],
    ],
  ],
  ['Bookmark', '/bookmark/'],
  ['Schedule', '/schedule/'],
  ['A-Z List', '/az-lists/'],
];

function menuLink(ctx: PageContext, path: string): string {
  // The theme's menu stores absolute URLs; esc_url prints & as &#038;.
  return path === '#' ? '#' : absolute(ctx, path.replace(/&/g, '&#038;'));
}

function navigation(ctx: PageContext): string {
  const items = MENU.map(([label, path, children], index) => {
    const id = 100 + index * 7;
    const sub =
      children === undefined
        ? ''
        : `<ul class="sub-menu">${children.map(([childLabel, childPath], childIndex) => `<li id="menu-item-${id + childIndex + 1}" class="menu-item menu-item-type-custom menu-item-object-custom menu-item-${id + childIndex + 1}"><a href="${menuLink(ctx, childPath)}" itemprop="url"><span itemprop="name">${childLabel}</span></a></li>`).join('')}</ul>`;
    const parent = children === undefined ? '' : ' menu-item-has-children';
    return `<li id="menu-item-${id}" class="menu-item menu-item-type-custom menu-item-object-custom${parent} menu-item-${id}"><a href="${menuLink(ctx, path)}" itemprop="url"><span itemprop="name">${label}</span></a>${sub}</li>`;
  });
  return `<div class="th mngentwo">
<div class="centernav bound">
<div class="shme"><i class="far fa-bars" aria-hidden="true"></i></div>
<header role="banner" itemscope itemtype="http://schema.org/WPHeader">
<div class="site-branding logox"><span class="logos"><a title="${SITE_NAME} - Nonton Donghua Subtitle Indonesia" itemprop="url" href="${ctx.origin}/"><img src="${ctx.origin}/wp-content/uploads/2023/06/logo.png" alt="${SITE_NAME}" width="180" height="50"></a></span><meta itemprop="name" content="${SITE_NAME}" /></div>
</header>
<nav id="main-menu" class="mm">
<input class="swc" type="checkbox" id="swc" aria-label="Switch mode"><label class="sw" for="swc"><i class="fas fa-moon"></i></label>
<ul id="menu-menu" class="menu" role="menubar" itemscope itemtype="http://schema.org/SiteNavigationElement">${items.join('')}</ul>
</nav>
<div class="searchx minmb">
<form action="${ctx.origin}/" id="form" method="get" itemprop="potentialAction" itemscope itemtype="http://schema.org/SearchAction">
<meta itemprop="target" content="${ctx.origin}/?s={query}"/>
<input id="s" itemprop="query-input" class="search-live" type="text" placeholder="Search..." name="s" autocomplete="off"/>
<button type="submit" id="submitsearch" aria-label="search"><i class="fas fa-search" aria-hidden="true"></i></button>
</form>
<div class="srcmob srccls"><i class="fas fa-times-circle"></i></div>
<div id="datafetch" style="display: none;"></div>
</div>
<a class="surprise" href="${ctx.origin}/random"><i class="far fa-dice" aria-hidden="true"></i> Surprise Me!</a>
<div class="srcmob"><i class="fas fa-search" aria-hidden="true"></i></div>
</div>
</div>`;
}

function announcement(): string {
  return `<div class="announ"><p><b>PENGUMUMAN:</b> Domain kami sering diblokir. Bookmark <b>ANICHIN.CAFE</b> dan <b>ANICHIN.TEAM</b> untuk mengetahui domain terbaru. Jika website error, gunakan ANICHIN.WATCH.</p></div>`;
}

function footer(ctx: PageContext): string {
  const letters = ['.', '0-9', ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];
  const items = letters.map((letter) => `<li><a href="${ctx.origin}/az-lists/?show=${letter}">${letter === '.' ? '#' : letter}</a></li>`);
  return `<div id="footer">
<footer id="colophon" class="site-footer" itemscope="itemscope" itemtype="http://schema.org/WPFooter" role="contentinfo">
<div class="footermenu"><div class="menu-footer-container"><ul id="menu-footer" class="menu"><li><a href="${ctx.origin}/dmca/">DMCA</a></li><li><a href="${ctx.origin}/privacy-policy/">Privacy Policy</a></li><li><a href="${ctx.origin}/contact/">Contact</a></li></ul></div></div>
<div class="footer-az">
<span class="ftazlist">A-Z LIST</span><span class="size-s">Searching series order by alphabet name A to Z.</span>
<ul class="az-list">
${items.join('\n')}
</ul>
</div>
<div class="inner">
<div class="copyright"><div class="txt"><p>Copyright &copy; 2026 ${SITE_NAME}. All Rights Reserved</p><p>Disclaimer: This site does not store any files on its server. All contents are provided by non-affiliated third parties.</p></div></div>
</div>
</footer>
</div>`;
}

function footerScripts(ctx: PageContext): string {
  const theme = `${ctx.origin}/wp-content/themes/animestream/assets/js`;
  const files = [
    'function.js?ver=2.2.6',
    'swiper-bundle.min.js?ver=8.4.5',
    'lazysizes.min.js?ver=5.3.2',
    'bookmark.js?ver=2.2.6',
    'history.js?ver=2.2.6',
    'filter.js?ver=2.2.6',
  ];
  return `${files.map((file, index) => `<script src="${theme}/${file}" id="ts-script-${index}-js"></script>`).join('\n')}
<script>
jQuery(document).ready(function($){
  var slider = new Swiper('#slidertwo', { loop: true, autoplay: { delay: 5000 }, pagination: { el: '.swiper-pagination', clickable: true } });
  $('.ts-wpop-tab').on('click', function(){ var range = $(this).data('range'); $('.wpop').hide(); $('.wpop-' + range).show(); $('.ts-wpop-nav-tabs li').removeClass('active'); $(this).parent().addClass('active'); });
  $('.series-gen .nav-tabs a').on('click', function(e){ e.preventDefault(); $('.tab-pane').removeClass('active'); $($(this).attr('href')).addClass('active'); });
  $('.srcmob').on('click', function(){ $('.minmb').toggleClass('minmbx'); });
  if (localStorage.getItem('thememode') === 'lightmode') { $('body').removeClass('darkmode'); $('#swc').prop('checked', true); }
  $('#swc').on('change', function(){ $('body').toggleClass('darkmode'); localStorage.setItem('thememode', $('body').hasClass('darkmode') ? 'darkmode' : 'lightmode'); });
});
</script>
<script type="speculationrules">{"prefetch":[{"source":"document","where":{"and":[{"href_matches":"\\/*"},{"not":{"href_matches":["\\/wp-*.php","\\/wp-admin\\/*","\\/wp-content\\/*"]}}]},"eagerness":"conservative"}]}</script>`;
}

export function layout(ctx: PageContext, input: LayoutInput): string {
  return withProfileLinks(
    ctx,
    `<!DOCTYPE html>
<html lang="en-US" prefix="og: https://ogp.me/ns#">
${head(ctx, input)}
<body class="${input.bodyClass} darkmode styletwo" itemscope="itemscope" itemtype="http://schema.org/WebPage">
${navigation(ctx)}
${topAdRow()}
<div id="content">
<div class="wrapper">
${announcement()}
<div class="postbody">
${input.main}
</div>
${sidebar(ctx)}
</div>
</div>
${footer(ctx)}
${floatingAds()}
${footerScripts(ctx)}
</body>
</html>
`,
  );
}
