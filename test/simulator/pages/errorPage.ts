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
