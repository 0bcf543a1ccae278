import helmet from 'helmet';

/**
 * helmet's headers, with a CSP that allows only our own scripts, styles and requests: the pages
 * load nothing from elsewhere and have no inline script or style.
 */
export const securityHeaders = helmet({
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      fontSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      // The service may be reached over plain HTTP (a local run, a proxy that ends TLS elsewhere);
      // upgrading would send the page's own requests to an https:// that is not there.
      upgradeInsecureRequests: null,
    },
  },
});
