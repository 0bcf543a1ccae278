import { STATUS_CODES } from 'node:http';

/** A bare server error page, as the origin's web server prints it for a 5xx. */
export function errorPage(status: number): string {
  const reason = STATUS_CODES[status] ?? 'Error';
  return `<!DOCTYPE html>
<html>
<head><title>${status} ${reason}</title></head>
<body>
<center><h1>${status} ${reason}</h1></center>
<hr><center>nginx</center>
</body>
</html>
`;
}

/** Cloudflare's own error pages: 1015 (rate limited) and 1020 (a firewall rule blocked the request). */
export function cloudflareErrorPage(code: 1015 | 1020, host: string, ray: string): string {
  const [title, headline] =
    code === 1015
      ? ['You are being rate limited', 'You are being rate limited']
      : ['Attention Required! | Cloudflare', 'Sorry, you have been blocked'];
  return `<!DOCTYPE html>
<html lang="en-US"><head><title>${title}</title></head>
<body><div id="cf-wrapper"><div id="cf-error-details" class="cf-error-details-wrapper">
<div class="cf-wrapper cf-header cf-error-overview"><h1><span class="cf-error-type">Error</span> <span class="cf-error-code">${code}</span></h1>
<h2 class="cf-subheadline">${headline}</h2></div>
<p>The owner of ${host} has set restrictions on this kind of request.</p>
<div class="cf-error-footer"><span>Cloudflare Ray ID: <strong class="font-semibold">${ray}</strong></span></div>
</div></div></body></html>
`;
}

/** A registrar's parking page: what an abandoned domain answers, with a 200. */
export function parkedPage(host: string): string {
  return `<!DOCTYPE html>
<html><head><title>${host} - domain ini dijual</title></head>
<body><h1>${host}</h1><p>Domain ini mungkin dijual. Situs lama kami sudah pindah.</p><a href="https://parking.example/buy?d=${host}">Beli domain ini</a></body></html>
`;
}
