// API reference: each "Coba" form sends its request from the browser and shows the answer.
// Without this script the form is a plain GET that opens the JSON.

const SHOWN_HEADERS = ['x-cache', 'x-ratelimit-remaining', 'retry-after'];

function show(result, name, text) {
  result.querySelector(`[data-field="${name}"]`).textContent = text;
}

async function tryRequest(form) {
  const result = form.querySelector('[data-try-result]');
  const button = form.querySelector('button[type="submit"]');
  // A parameter named in the path template ("/catalog/series/{slug}") fills it; the rest form the query.
  let path = form.dataset.path;
  const query = new URLSearchParams();
  for (const [name, value] of new FormData(form)) {
    if (path.includes(`{${name}}`)) path = path.replace(`{${name}}`, encodeURIComponent(value));
    else if (value !== '') query.append(name, value);
  }
  const url = query.size > 0 ? `${path}?${query}` : path;

  result.hidden = false;
  button.disabled = true;
  show(result, 'summary', `Mengirim GET ${url} …`);
  const started = performance.now();
  try {
    // no-store: every "Coba" reaches the server, so what is shown is its answer, not the browser's copy.
    const response = await fetch(url, { headers: { Accept: 'application/json' }, cache: 'no-store' });
    const text = await response.text();
    const elapsed = Math.round(performance.now() - started);
    let body = text;
    try {
      body = JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      // Not JSON: shown as it came.
    }
    show(result, 'summary', `GET ${url}`);
    show(result, 'status', `${response.status} ${response.statusText}`.trim());
    for (const header of SHOWN_HEADERS) show(result, header, response.headers.get(header) ?? '—');
    show(result, 'time', `${elapsed} ms`);
    show(result, 'body', body);
  } catch (error) {
    show(result, 'summary', `Permintaan gagal: ${error.message}`);
  } finally {
    button.disabled = false;
  }
}

for (const form of document.querySelectorAll('[data-try-it]')) {
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void tryRequest(form);
  });
}
