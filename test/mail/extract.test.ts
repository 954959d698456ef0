import { describe, it } from '../../testkit/test.ts';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseMessage } from '../../mail/parse.ts';
import { extractCode, extractHtml, extractLink, extractText, htmlToText } from '../../mail/extract.ts';

async function parsedFixture(name: string) {
  return parseMessage(readFileSync(new URL(`../fixtures/mail/${name}`, import.meta.url)));
}

function message(fields: { subject?: string; text?: string | null; html?: string | null }) {
  return { subject: fields.subject ?? '', text: fields.text ?? null, html: fields.html ?? null };
}

// Each hostile input below finishes in milliseconds; a quadratic scan would take minutes.
function assertFast(label: string, run: () => unknown, limitMs = 3000): void {
  const started = performance.now();
  run();
  const elapsed = performance.now() - started;
  assert.ok(elapsed < limitMs, `${label} took ${Math.round(elapsed)} ms`);
}

function countOf(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

describe('extractText', () => {
  it('returns null for null and the trimmed text when there is no history', () => {
    assert.equal(extractText(null), null);
    assert.equal(extractText('\n  Hello there.\n\nSee you.\n\n'), 'Hello there.\n\nSee you.');
  });

  it('Gmail reply loses the signature, the wrapped attribution and the quoted lines', async () => {
    // The attribution is wrapped before "wrote:" and the signature starts with "-- ".
    const mail = await parsedFixture('reply-quoted.eml');
    assert.equal(
      extractText(mail.text),
      'Thursday at 18:00 works for me. Please keep the rollback plan from last\ntime.',
    );
  });

  it('cuts at an Outlook "-----Original Message-----" separator', () => {
    const text = 'Approved.\n\n-----Original Message-----\nFrom: Bot <bot@x.example>\nSent: Monday\n\nPlease approve.';
    assert.equal(extractText(text), 'Approved.');
  });

  it('cuts at an Outlook From/Sent header block and its underscore rule', () => {
    const text = [
      'Sounds good, go ahead.',
      '',
      '________________________________',
      'From: Support Bot <bot@agents.example.com>',
      'Sent: Monday, March 9, 2026 2:02 PM',
      'To: Dana Whitfield <dana@example.com>',
      'Subject: Deploy window',
      '',
      'Would Thursday work?',
    ].join('\r\n');
    assert.equal(extractText(text), 'Sounds good, go ahead.');
  });

  it('cuts at French and German attributions', () => {
    assert.equal(
      extractText('Merci !\n\nLe lun. 9 mars 2026 à 14:02, Support Bot <bot@x.example> a écrit :\n> Bonjour'),
      'Merci !',
    );
    assert.equal(
      extractText('Danke!\n\nAm 09.03.2026 um 14:02 schrieb Support Bot <bot@x.example>:\n> Hallo'),
      'Danke!',
    );
  });

  it('keeps inline answers between quoted lines and drops the quotes', () => {
    const text = [
      'On Mon, Mar 9, 2026 at 2:02 PM Support Bot <bot@x.example> wrote:',
      '> Does Thursday work?',
      'Yes, Thursday works.',
      '',
      '> Should we keep the rollback plan?',
      'Yes, keep it.',
    ].join('\n');
    assert.equal(extractText(text), 'Yes, Thursday works.\n\nYes, keep it.');
  });

  it('drops mobile footers such as "Sent from my iPhone"', () => {
    assert.equal(extractText('On my way.\n\nSent from my iPhone\n'), 'On my way.');
    assert.equal(extractText('Ok\n\nGet Outlook for Android'), 'Ok');
  });

  it('keeps a forwarded message, even after a signature', () => {
    const text = [
      'FYI, see below.',
      '-- ',
      'Erin',
      '',
      '---------- Forwarded message ---------',
      'From: Legal Team <legal@example.org>',
      'Date: Fri, Mar 13, 2026 at 5:00 PM',
      'Subject: Contract draft',
      '',
      'Draft v3 is ready for review.',
    ].join('\n');
    const extracted = extractText(text) ?? '';
    assert.match(extracted, /^FYI, see below\.\n+---------- Forwarded message ---------/);
    assert.match(extracted, /Draft v3 is ready for review\.$/);
    assert.doesNotMatch(extracted, /Erin/);
  });

  it('stays fast on hostile line patterns', () => {
    // Many attribution-like lines, a long run of trailing spaces, a huge single line.
    const attributions = 'On Mon, X wrote something\n'.repeat(200_000);
    assertFast('attribution-like lines', () => extractText(attributions));
    assertFast('trailing spaces', () => extractText(`a${' '.repeat(2_000_000)}b\n`));
    assertFast('one long line', () => extractText(`Am ${'schrieb '.repeat(300_000)}`));
  });
});

describe('extractHtml', () => {
  it('returns null for null and the html unchanged when nothing is quoted', () => {
    assert.equal(extractHtml(null), null);
    const html = '<div>Hello <b>there</b></div>';
    assert.equal(extractHtml(html), html);
  });

  it('Gmail reply is cut at the signature and the quote, with open elements closed', async () => {
    const mail = await parsedFixture('reply-quoted.eml');
    const extracted = extractHtml(mail.html) ?? '';
    assert.match(extracted, /Thursday at 18:00 works for me/);
    assert.doesNotMatch(extracted, /gmail_signature|gmail_quote|Dana Whitfield|Would Thursday/);
    assert.equal(countOf(extracted, /<div\b/g), countOf(extracted, /<\/div>/g));
  });

  it('Apple Mail cite blockquote is removed with the attribution before it', () => {
    const html =
      '<html><body><div>Sounds good.</div><div><br><div>On Mar 9, 2026, at 14:02, Support Bot &lt;bot@x.example&gt; wrote:</div>' +
      '<br class="Apple-interchange-newline"><blockquote type="cite"><div>Does Thursday work?</div></blockquote></div></body></html>';
    assert.equal(extractHtml(html), '<html><body><div>Sounds good.</div><div></div></body></html>');
  });

  it('Outlook reply is cut at #appendonsend and the <hr> before divRplyFwdMsg is dropped', () => {
    const html =
      '<html><body><div style="font-family:Calibri">Approved.</div><div id="Signature">Bob</div>' +
      '<hr style="display:inline-block;width:98%" tabindex="-1"><div id="divRplyFwdMsg" dir="ltr"><b>From:</b> Bot<br><b>Sent:</b> Monday</div>' +
      '<div>Please approve.</div></body></html>';
    assert.equal(
      extractHtml(html),
      '<html><body><div style="font-family:Calibri">Approved.</div><div id="Signature">Bob</div></body></html>',
    );
    const withAppend = html.replace('<hr', '<div id="appendonsend"></div><hr');
    assert.equal(extractHtml(withAppend), extractHtml(html));
  });

  it('Thunderbird reply is cut at the moz-cite-prefix', () => {
    const html =
      '<p>Fine by me.</p><div class="moz-cite-prefix">On 09/03/2026 14:02, Bot wrote:<br></div><blockquote type="cite" cite="mid:x@y">old</blockquote>';
    assert.equal(extractHtml(html), '<p>Fine by me.</p>');
  });

  it('a Gmail forward inside gmail_quote is kept', () => {
    const html =
      '<div dir="ltr">FYI<br><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">---------- Forwarded message ---------<br>From: Legal</div>Draft v3</div></div>';
    assert.equal(extractHtml(html), html);
  });

  it('tag names from the message cannot reach object prototypes', () => {
    // "<constructor>" once indexed a plain object and called Object as a tag table.
    const html = '<constructor><valueOf><__proto__>text</valueOf><blockquote type="cite">q</blockquote>';
    assert.equal(extractHtml(html), '<constructor><valueOf><__proto__>text</valueOf></constructor>');
    assert.equal(htmlToText(html), '<__proto__>text\n\nq');
  });

  it('stays fast on hostile markup', () => {
    // Deep unclosed nesting with a flood of unmatched end tags, an unterminated comment,
    // an unterminated quoted attribute, and many look-alike forward markers.
    assertFast('deep nesting', () => extractHtml('<div>'.repeat(200_000) + '</span>'.repeat(200_000)));
    assertFast('unterminated comment', () => extractHtml(`<p>a</p><!--${'x'.repeat(2_000_000)}`));
    assertFast('unterminated attribute', () => extractHtml(`<a href="${'x'.repeat(2_000_000)}`));
    const forwards = '<div class="gmail_quote">---------- Forwarded message ---------</div>'.repeat(50_000);
    assertFast('forward markers', () => extractHtml(forwards));
    assertFast('many tags', () => htmlToText('<b>x</b><br>'.repeat(300_000)));
  });
});

describe('htmlToText', () => {
  it('drops head, script and style, and puts blocks on their own lines', () => {
    const html =
      '<html><head><title>T</title><style>p{color:red}</style></head><body><script>var a = "<p>";</script>' +
      '<h1>Title</h1><p>First   paragraph\nwrapped.</p><div>Line one<br>Line two</div>' +
      '<table><tr><td>A</td><td>B</td></tr><tr><td>C</td></tr></table></body></html>';
    assert.equal(htmlToText(html), 'Title\n\nFirst paragraph wrapped.\n\nLine one\nLine two\n\nA B\nC');
  });

  it('decodes named, numeric and windows-1252 numeric entities and drops zero-width padding', () => {
    const html = '<p>caf&eacute; &amp; cr&egrave;me &#8217;&#x20AC;&#150; a&nbsp;b&zwnj;&zwnj;c</p>';
    assert.equal(htmlToText(html), 'café & crème ’€– a bc');
  });

  it('leaves an entity-looking query parameter as written', () => {
    assert.equal(htmlToText('<p>?a=1&copy=2&amp;b=3</p>'), '?a=1&copy=2&b=3');
  });

  it('keeps the line breaks inside <pre>', () => {
    assert.equal(htmlToText('<pre>line 1\nline 2</pre><p>after\nwrap</p>'), 'line 1\nline 2\n\nafter wrap');
  });
});

describe('extractCode', () => {
  it('finds "Your code is 482913" and ignores the date, time, IP, phone, zip and year around it', async () => {
    // The fixture's footer has "March 9, 2026", "14:05", an IPv4 address, "+1 (415) 555-0199", a zip and "(c) 2026".
    assert.equal(extractCode(await parsedFixture('verify-plain-code.eml')), '482913');
  });

  it('finds a code in a styled <td> of an html-only message', async () => {
    // No text part: the code comes from the rendered html, on a row of its own below the keyword,
    // with a hidden preheader, "03/10/2026", "11:45 PM", "© 2026" and a street number around it.
    assert.equal(extractCode(await parsedFixture('verify-html-td.eml')), '739204');
  });

  it('finds a GitHub-style 8-digit verification code next to IP address and timestamp lines', async () => {
    // "Verification code: 48291037" follows "IP address: 192.0.2.44" and "Time: 2026-03-09 14:05:44 UTC".
    assert.equal(extractCode(await parsedFixture('github-device.eml')), '48291037');
  });

  it('finds a Slack-style upper-case alphanumeric code with a hyphen, as written', async () => {
    // The code is in the subject and on its own line about 90 characters after "confirmation code".
    assert.equal(extractCode(await parsedFixture('slack-code.eml')), 'XKT-4M9');
  });

  it('returns null for ordinary mail with numbers in it', async () => {
    // Times, phone numbers, "#7731", "INV-2026-0042", a tokenised URL: none is near a code keyword.
    for (const name of ['plain-text.eml', 'reply-quoted.eml', 'html-only.eml', 'mixed-related-pdf.eml', 'verify-link.eml']) {
      assert.equal(extractCode(await parsedFixture(name)), null, name);
    }
  });

  it('joins a code written in groups', () => {
    assert.equal(extractCode(message({ text: 'Your verification code: 482 913' })), '482913');
    assert.equal(extractCode(message({ text: 'Your one-time passcode is 4829-1037.' })), '48291037');
    assert.equal(extractCode(message({ text: 'Enter this code:\n4 8 2 9 1 3' })), '482913');
  });

  it('prefers the number next to the keyword over other numbers', () => {
    const text = 'Order 99812 shipped to 1200 Main St.\nYour PIN is 7305.\nRef 44521';
    assert.equal(extractCode(message({ text })), '7305');
  });

  it('finds a code given only in the subject', () => {
    assert.equal(extractCode(message({ subject: '591034 is your Acme verification code', text: 'Welcome!' })), '591034');
  });

  it('never takes a year, a phone number, an amount or a time for a code', () => {
    assert.equal(extractCode(message({ text: 'Your code was sent on March 3, 2026 at 10:30.' })), null);
    assert.equal(extractCode(message({ text: 'Lost your code? Call 555-123-4567 or +44 20 7946 0958.' })), null);
    assert.equal(extractCode(message({ text: 'Code applied: you saved $1,299.00 (1500 USD, 15%).' })), null);
    assert.equal(extractCode(message({ text: 'Verification requested at 10:30:15 from 10.0.0.1' })), null);
  });

  it('ignores promo and zip codes, lower-case tokens and all-letter words', () => {
    assert.equal(extractCode(message({ text: 'Use promo code SAVE20 at checkout.' })), null);
    assert.equal(extractCode(message({ text: 'Zip code 94107' })), null);
    assert.equal(extractCode(message({ text: 'Your code is abc123' })), null);
    assert.equal(extractCode(message({ text: 'Verification CONFIRMED for ACCOUNT' })), null);
  });

  it('stays fast on hostile input', () => {
    // Long digit runs, a long word run before '@', a long run of separators.
    assertFast('digits', () => extractCode(message({ text: `code ${'1'.repeat(1_000_000)}` })));
    assertFast('word run', () => extractCode(message({ text: `code ${'a'.repeat(1_000_000)}@` })));
    assertFast('separators', () => extractCode(message({ text: `code ${'1.'.repeat(500_000)}` })));
    assertFast('keywords', () => extractCode(message({ text: 'code 1234 '.repeat(100_000) })));
  });
});

describe('extractLink', () => {
  it('finds the verify link with &amp; decoded, past an unsubscribe link and a tracking pixel', async () => {
    // The unsubscribe and preference links come first in the html and in the text; a logo link and a pixel follow.
    assert.equal(
      extractLink(await parsedFixture('verify-link.eml')),
      'https://example.com/verify?token=8f1c2e9a7b3d4c5e6f708192a3b4c5d6&u=1',
    );
  });

  it('finds a magic sign-in link in plain text and drops trailing punctuation', () => {
    const text = 'Click to sign in to Acme: https://acme.example/m/Zx81kQp02LmN7rT4vW9y.\nThis link expires in 15 minutes.';
    assert.equal(extractLink(message({ text })), 'https://acme.example/m/Zx81kQp02LmN7rT4vW9y');
  });

  it('takes a tracking redirect whose label says "Confirm"', () => {
    const html = '<a href="https://click.mail.example/ls/click?upn=abc">Confirm my account</a>';
    assert.equal(extractLink(message({ html })), 'https://click.mail.example/ls/click?upn=abc');
  });

  it('ignores unsubscribe, preference, mailto and image links', () => {
    const html =
      '<a href="https://x.example/unsubscribe?token=abcdefabcdefabcdef">Unsubscribe</a>' +
      '<a href="https://x.example/email-preferences/verify">Manage</a>' +
      '<a href="mailto:verify@x.example">Verify by mail</a>' +
      '<a href="https://cdn.x.example/confirm.png">Confirm</a>';
    assert.equal(extractLink(message({ html })), null);
  });

  it('returns null when no link is about verification', async () => {
    // GitHub's device mail links to security settings after "If you did not attempt to sign in".
    assert.equal(extractLink(await parsedFixture('github-device.eml')), null);
    assert.equal(extractLink(await parsedFixture('html-only.eml')), null);
  });

  it('stays fast on hostile input', () => {
    // A URL that is all trailing punctuation, and a flood of anchors.
    assertFast('punctuation URL', () => extractLink(message({ text: `https://x${'.'.repeat(4000)} `.repeat(500) })));
    assertFast('anchors', () => extractLink(message({ html: '<a href="https://x.example/verify">x</a>'.repeat(100_000) })));
  });
});
