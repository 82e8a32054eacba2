/**
 * The finder bench's generated CRM list view (bench/finder.ts, bench/page-cost.ts): per row a phone
 * (some as tel: links), a mobile, and digit-heavy non-phone columns whose bait is 10-digit,
 * US-shaped account numbers.
 */
const AREAS = ['212', '213', '312', '415', '404', '617', '646', '702', '512', '303'];
const FIRST = ['Ada', 'Ben', 'Cleo', 'Dev', 'Eva', 'Finn', 'Gia', 'Hugo', 'Iris', 'Jon'];
const LAST = ['Park', 'Ng', 'Roy', 'Diaz', 'Kim', 'Shaw', 'Ito', 'Berg', 'Moss', 'Lund'];

function phoneOf(i: number): { text: string; e164: string } {
  const area = AREAS[i % AREAS.length]!;
  const line = `01${String(i % 100).padStart(2, '0')}`;
  const e164 = `+1${area}555${line}`;
  const forms = [`(${area}) 555-${line}`, `${area}-555-${line}`, `${area}.555.${line}`, `+1 ${area} 555 ${line}`, `${area}555${line}`, `(${area}) 555-${line} x${i % 900 + 100}`];
  return { text: forms[i % forms.length]!, e164 };
}

/** A Salesforce-like list view: per row a phone (some as tel: links), a mobile, and digit-heavy non-phone columns. */
export function crmTable(rows: number): { html: string; occurrences: Record<string, number> } {
  const occurrences: Record<string, number> = {};
  const count = (e164: string) => (occurrences[e164] = (occurrences[e164] ?? 0) + 1);
  const body: string[] = [];
  for (let i = 0; i < rows; i++) {
    const phone = phoneOf(i);
    const mobile = phoneOf(i * 7 + 3);
    count(phone.e164);
    const mobileCell = i % 3 === 0 ? '' : (count(mobile.e164), `<span>${mobile.text}</span>`);
    const phoneCell = i % 5 === 0 ? `<a href="tel:${phone.e164}">${phone.text}</a>` : phone.text;
    const account = `${AREAS[(i + 3) % AREAS.length]}${String(5550000 + ((i * 37) % 9999)).padStart(7, '0')}`; // 10 digits, US-shaped: not a phone
    body.push(
      `<tr><td><a href="/003${String(i).padStart(12, '0')}">${FIRST[i % 10]} ${LAST[(i * 3) % 10]}</a></td>` +
        `<td>Account ${i % 250}</td><td>${phoneCell}</td><td>${mobileCell}</td><td>${account}</td>` +
        `<td>${2020 + (i % 6)}-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}</td>` +
        `<td>$${(i * 1234.5).toFixed(2)}</td><td>lead${i}@example.com</td><td>Owner ${i % 17}</td><td>Stage ${i % 6}</td></tr>`,
    );
  }
  const html =
    `<!doctype html><html><head><meta charset="utf-8"><title>Contacts</title></head><body><h1>Contacts (${rows})</h1>` +
    `<table><thead><tr><th>Name</th><th>Account</th><th>Phone</th><th>Mobile</th><th>Account Number</th><th>Created Date</th>` +
    `<th>Amount</th><th>Email</th><th>Owner</th><th>Stage</th></tr></thead><tbody>${body.join('')}</tbody></table></body></html>`;
  return { html, occurrences };
}
