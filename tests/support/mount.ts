/** A DOM test's page: `html` in a new <div> appended to the body (the test's afterEach empties the body). */
export function mount(html: string): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = html;
  document.body.appendChild(root);
  return root;
}
