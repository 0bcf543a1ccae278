// API reference: the Copy button of each code sample. Without a clipboard (no JavaScript, or a page
// served over plain HTTP off localhost) the buttons stay hidden and the code is selected by hand.

const STATUS_SHOWN_MS = 3000;
const statusTimers = new WeakMap();

function selectCode(code) {
  const range = document.createRange();
  range.selectNodeContents(code);
  const selection = window.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
}

async function copySample(sample) {
  const code = sample.querySelector('[data-code]');
  const status = sample.querySelector('[data-copy-status]');
  try {
    await navigator.clipboard.writeText(code.textContent);
    status.textContent = 'Tersalin.';
  } catch {
    // The browser refused the clipboard: the code is selected, ready for Ctrl+C.
    selectCode(code);
    status.textContent = 'Tidak bisa menyalin otomatis; kode sudah dipilih, tekan Ctrl+C.';
  }
  clearTimeout(statusTimers.get(sample));
  statusTimers.set(
    sample,
    setTimeout(() => {
      status.textContent = '';
    }, STATUS_SHOWN_MS),
  );
}

if (navigator.clipboard?.writeText) {
  for (const sample of document.querySelectorAll('.code-sample')) {
    const button = sample.querySelector('[data-copy]');
    button.hidden = false;
    button.addEventListener('click', () => void copySample(sample));
  }
}
