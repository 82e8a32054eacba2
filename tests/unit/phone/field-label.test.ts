// @vitest-environment happy-dom
/**
 * labelFor's form-layout rule: the element before a value (or before its parent) labels it when it
 * is a <label>/<dt>/<th>, has a "label" class, or its text ends with a colon — white space collapsed,
 * at most 60 characters.
 */
import { describe, expect, it } from 'vitest';
import { labelFor } from '../../../lib/phone/scan-dom';

function valueIn(html: string): Element {
  document.body.innerHTML = html;
  return document.getElementById('v')!;
}

describe('labelFor, form layouts', () => {
  it('reads a sibling that ends with a colon, however the page spaces it', () => {
    expect(labelFor(valueIn('<div><span>Account Number:</span><span id="v">4155550132</span></div>'))).toBe('Account Number:');
    expect(labelFor(valueIn('<div><span>\n  Account\n  Number:\n  </span><span id="v">4155550132</span></div>'))).toBe('Account Number:');
    expect(labelFor(valueIn('<div><span><b>Fax</b>:&nbsp;</span><span id="v">4155550132</span></div>'))).toBe('Fax:');
    // One level up: the value sits in a control div after the label.
    expect(labelFor(valueIn('<div><span>Employees:</span><div><span id="v">4155550132</span></div></div>'))).toBe('Employees:');
  });

  it('reads label elements and label classes whatever their text', () => {
    expect(labelFor(valueIn('<div><label>Phone</label><span id="v">4155550132</span></div>'))).toBe('Phone');
    expect(labelFor(valueIn('<div><span class="slds-form-element__label">Mobile</span><div id="v">4155550132</div></div>'))).toBe('Mobile');
  });

  it('does not take another value, a sentence or a long text ending with a colon for a label', () => {
    expect(labelFor(valueIn('<ul><li>Ref: 2024-05-01 10:00</li><li id="v">Order: 4155550132</li></ul>'))).toBe('');
    expect(labelFor(valueIn('<div><span>Ref: 2024-05-01: done</span><span id="v">4155550132</span></div>'))).toBe('');
    expect(labelFor(valueIn(`<div><span>${'a long sentence that goes on '.repeat(3)}:</span><span id="v">4155550132</span></div>`))).toBe('');
  });
});
