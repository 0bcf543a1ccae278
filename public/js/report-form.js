// Report Center: live "n/max" counters and the same checks as the server before sending.
// Without this script the form still works: the browser's own checks, then the server's.
// Messages and limits come from the page's data attributes, which the server writes.

const form = document.querySelector('[data-report-form]');

/** Code points, as the server counts them (an emoji counts once); line breaks as one character. */
const countOf = (text) => [...text.replace(/\r\n?/g, '\n')].length;

const controlsOf = (field) => [...field.querySelectorAll('input, select, textarea')];

function valueOf(field) {
  const controls = controlsOf(field);
  if (controls[0].type === 'radio') return controls.find((control) => control.checked)?.value ?? '';
  return controls[0].value;
}

function problemOf(field) {
  const { requiredMessage, blankMessage, max, maxMessage } = field.dataset;
  const value = valueOf(field);
  if (value === '') return requiredMessage;
  if (max === undefined) return '';
  if (value.trim() === '') return blankMessage;
  const count = countOf(value);
  return count > Number(max) ? maxMessage.replace('{n}', String(count)) : '';
}

function showProblem(field, message) {
  const error = field.querySelector('[data-error-for]');
  error.textContent = message;
  error.hidden = message === '';
  for (const control of controlsOf(field)) {
    if (control.type === 'radio') continue;
    if (message) control.setAttribute('aria-invalid', 'true');
    else control.removeAttribute('aria-invalid');
  }
}

function updateCounter(field) {
  const counter = field.querySelector('[data-counter-for]');
  if (!counter) return;
  const count = countOf(valueOf(field));
  counter.textContent = `${count}/${field.dataset.max}`;
  counter.classList.toggle('counter--over', count > Number(field.dataset.max));
}

if (form) {
  // Our checks replace the browser's bubbles, so the messages read the same as the server's.
  form.noValidate = true;
  const fields = [...form.querySelectorAll('[data-field]')];
  // A field is re-checked while typing only once it has been checked (after a send or a server answer).
  const checked = new Set(fields.filter((field) => !field.querySelector('[data-error-for]').hidden));

  for (const field of fields) {
    updateCounter(field);
    const onChange = () => {
      updateCounter(field);
      if (checked.has(field)) showProblem(field, problemOf(field));
    };
    field.addEventListener('input', onChange);
    field.addEventListener('change', onChange);
  }

  form.addEventListener('submit', (event) => {
    let firstWrong;
    for (const field of fields) {
      checked.add(field);
      const problem = problemOf(field);
      showProblem(field, problem);
      firstWrong ??= problem ? field : undefined;
    }
    if (firstWrong) {
      event.preventDefault();
      controlsOf(firstWrong)[0].focus();
    }
  });
}
