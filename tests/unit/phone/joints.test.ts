// @vitest-environment happy-dom
/**
 * Issue 11 point 1: element boundaries a reader sees as separate separate the text; inline runs a
 * reader sees as one number still join. Each case varies how the page makes the boxes (a class
 * rule, an inline style, a flex or grid parent, an element that is a block by default).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { scanNode } from '../../../lib/phone/scan';

function scan(html: string, css = ''): string[] {
  document.head.innerHTML = css ? `<style>${css}</style>` : '';
  document.body.innerHTML = html;
  return scanNode(document.body, { defaultCountry: 'US' }).map((m) => m.e164);
}

afterEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

describe('touching elements laid out apart', () => {
  it('label and value spans made blocks by a class rule (the issue example)', () => {
    const html = '<div><span class="k">Phone</span><span class="v">(503) 555-0100</span><span class="k">Fax</span><span class="v">(503) 555-0101</span></div>';
    expect(scan(html, '.k, .v { display: block }')).toEqual(['+15035550100', '+15035550101']);
  });

  it('flex items and grid items, whatever their own display', () => {
    expect(scan('<div style="display:flex"><span>Direct</span><span>(971) 555-0106</span><span>(971) 555-0107</span></div>')).toEqual([
      '+19715550106',
      '+19715550107',
    ]);
    expect(scan('<div class="g"><i>Mobile</i><i>(206) 555-0105</i><i>(206) 555-0104</i></div>', '.g { display: grid }')).toEqual([
      '+12065550105',
      '+12065550104',
    ]);
  });

  it('a number touching a date, an id or another number in its own box', () => {
    const css = '.c { display: block }';
    expect(scan('<p><span class="c">(971) 555-0109</span><span class="c">12/05/2024</span></p>', css)).toEqual(['+19715550109']);
    expect(scan('<p><span class="c">971-555-0107</span><span class="c">971-555-0108</span></p>', css)).toEqual(['+19715550107', '+19715550108']);
    expect(scan('<p><span class="c">503.555.0111</span><span class="c">503.555.0112</span></p>', css)).toEqual(['+15035550111', '+15035550112']);
    expect(scan('<p>Phones <span class="c">+15035550113</span><span class="c">+15035550114</span></p>', css)).toEqual(['+15035550113', '+15035550114']);
  });

  it('a list item per property and a label laid out as a block', () => {
    const html =
      '<ul><li><span>Phone number</span><span>+1 206-555-0104</span></li><li><label style="display:block">Phone</label><span>(971) 555-0106</span></li></ul>';
    expect(scan(html)).toEqual(['+12065550104', '+19715550106']);
  });

  it('a non-phone label in its own box still vetoes the value under it', () => {
    const css = '.k, .v { display: block }';
    const html =
      '<div><span class="k">Fax</span><span class="v">(503) 555-0101</span><span class="k">Account Number</span><span class="v">5035550190</span><span class="k">Employees</span><span class="v">2065550192</span></div>';
    expect(scan(html, css)).toEqual(['+15035550101']);
  });
});

describe('inline runs still join', () => {
  it('spans around hyphens, &nbsp; between spans, a bold area code, touching inline digits', () => {
    expect(scan('<p>Direct: <span>206</span>-<span>555</span>-<span>0112</span></p>')).toEqual(['+12065550112']);
    expect(scan('<p>Switchboard <span>+1</span>&nbsp;<span>206</span>&nbsp;<span>555</span>&nbsp;<span>0113</span></p>')).toEqual(['+12065550113']);
    expect(scan('<p>Desk <b>(206)</b><span> 555-0114</span></p>')).toEqual(['+12065550114']);
    expect(scan('<p>Cell <span>206</span><span>5550115</span></p>')).toEqual(['+12065550115']);
  });

  it('an inline label glued to a bracketed number reads as two words', () => {
    expect(scan('<p><label>Direct</label><span>(503) 555-0116</span></p>')).toEqual(['+15035550116']);
    expect(scan('<p><b>Tel</b><a href="#">(503) 555-0117</a></p>')).toEqual(['+15035550117']);
  });
});
