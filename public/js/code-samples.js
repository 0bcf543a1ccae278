// API reference: the code samples. Each block shows one language at a time behind tabs, and the
// language a reader picks is picked in every block; each sample has a Copy button. Without this
// script every language is shown, one under the other, and the code is selected by hand.

const STATUS_SHOWN_MS = 3000;
const statusTimers = new WeakMap();
const blocks = [...document.querySelectorAll('[data-code-samples]')];

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

function showLanguage(language) {
  for (const block of blocks) {
    for (const tab of block.querySelectorAll('[role="tab"]')) {
      const selected = tab.dataset.language === language;
      tab.setAttribute('aria-selected', String(selected));
      tab.tabIndex = selected ? 0 : -1;
    }
    for (const sample of block.querySelectorAll('.code-sample')) sample.hidden = sample.dataset.language !== language;
  }
}

function addTabs(block, blockIndex) {
  const tabList = document.createElement('div');
  tabList.className = 'code-samples__tabs';
  tabList.setAttribute('role', 'tablist');
  tabList.setAttribute('aria-label', `Bahasa contoh kode untuk ${block.dataset.name}`);
  const samples = [...block.querySelectorAll('.code-sample')];
  const tabs = samples.map((sample) => {
    const { language } = sample.dataset;
    const tab = document.createElement('button');
    tab.type = 'button';
    tab.className = 'code-samples__tab';
    tab.id = `code-${blockIndex}-${language}-tab`;
    tab.dataset.language = language;
    tab.setAttribute('role', 'tab');
    const label = sample.querySelector('.code-sample__label');
    tab.textContent = label.textContent;
    // The tab names the language now; the caption keeps it for screen readers only.
    label.classList.add('visually-hidden');
    sample.id = `code-${blockIndex}-${language}`;
    sample.setAttribute('role', 'tabpanel');
    sample.setAttribute('aria-labelledby', tab.id);
    tab.setAttribute('aria-controls', sample.id);
    tab.addEventListener('click', () => showLanguage(language));
    return tab;
  });
  // Arrow keys, Home and End move between the tabs of one block, as in every tab list.
  tabList.addEventListener('keydown', (event) => {
    const current = tabs.indexOf(document.activeElement);
    const next = { ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (current === -1 || next === undefined) return;
    event.preventDefault();
    const tab = tabs[(next + tabs.length) % tabs.length];
    showLanguage(tab.dataset.language);
    tab.focus();
  });
  tabList.append(...tabs);
  block.prepend(tabList);
}

blocks.forEach(addTabs);
if (blocks.length > 0) showLanguage(blocks[0].querySelector('.code-sample').dataset.language);

if (navigator.clipboard?.writeText) {
  for (const sample of document.querySelectorAll('.code-sample')) {
    const button = sample.querySelector('[data-copy]');
    button.hidden = false;
    button.addEventListener('click', () => void copySample(sample));
  }
}
