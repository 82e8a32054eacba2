/** Numbers found on the current page (a later issue). Renders nothing for now; the popup keeps its place. */
export function OnThisPage() {
  return null;
}
