/**
 * Ads. The real pages are full of gambling banners, and some ad slots carry card-shaped markup
 * (`article.bs`) so that a scraper that is not scoped to the main column picks them up.
 */
interface Ad {
  readonly href: string;
  readonly image: string;
  readonly name: string;
}

const ADS: readonly Ad[] = [
  {
    href: 'https://gacor88.example/daftar?ref=anichin',
    image: 'https://imgcdn.example/banner/gacor88-728x90.gif',
    name: 'GACOR88 Slot Online',
  },
  { href: 'https://maxwin-jp.example/?ref=anc', image: 'https://imgcdn.example/banner/maxwinjp.gif', name: 'MAXWIN JP' },
  { href: 'https://toto4d.example/register', image: 'https://imgcdn.example/banner/toto4d-728.gif', name: 'TOTO 4D Resmi' },
  { href: 'https://pragma-bet.example/', image: 'https://imgcdn.example/banner/pragmabet.gif', name: 'PRAGMA BET' },
];

function ad(slot: number): Ad {
  return ADS[slot % ADS.length] ?? (ADS[0] as Ad);
}

function banner(slot: number): string {
  const { href, image, name } = ad(slot);
  return `<a href="${href}" target="_blank" rel="nofollow noopener"><img src="${image}" alt="${name}" width="728" height="90"></a>`;
}

/** A card that looks like a real one but advertises a gambling site. */
function decoyCard(slot: number): string {
  const { href, image, name } = ad(slot);
  return `<article class="bs" itemscope="itemscope" itemtype="http://schema.org/CreativeWork">
<div class="bsx">
<a href="${href}" itemprop="url" title="${name}" class="tip" rel="nofollow noopener" target="_blank">
<div class="limit">
<div class="typez Donghua">Donghua</div>
<div class="ply"><i class="far fa-play-circle"></i></div>
<div class="bt"> <span class="epx">Ep 01</span> <span class="sb Sub">Sub</span></div>
<img src="${image}" class="ts-post-image wp-post-image" width="247" height="350">
</div>
<div class="tt">${name}<h2 itemprop="headline">Daftar Sekarang Bonus 100%</h2>
</div>
</a>
</div>
</article>`;
}

/** The banner row under the top nav, outside the main column; it holds a decoy card. */
export function topAdRow(): string {
  return `<div class="blox mlb kln">
${ADS.map((_, slot) => banner(slot)).join('\n')}
${decoyCard(0)}
</div>`;
}

/** A banner between sections of the main column (images only). */
export function inlineAd(slot: number): string {
  return `<div class="blox mlb kln">${banner(slot)}${banner(slot + 1)}</div>`;
}

/** A sidebar ad widget laid out like a series block, with decoy cards. */
export function sidebarAdBlock(): string {
  return `<div class="section">
<div class="releases"><h3>Recommended</h3></div>
<div class="listupd">
${decoyCard(1)}
${decoyCard(2)}
</div>
</div>`;
}

/** Floating ads at the end of the body. */
export function floatingAds(): string {
  return `<div id="teaser3"><div class="ctrl"><span class="close">×</span></div>${banner(2)}</div>
<div id="overplay"><div class="ctrl"><span class="close">×</span></div>${banner(3)}</div>`;
}
