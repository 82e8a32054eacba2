/**
 * An execution's transcript as turns: the one parser the transcript view and the test plans' checks
 * share. The spec types `transcript` as a string; the service (and the sandbox) write one utterance
 * per line, `assistant: …` / `user: …`. Live transcripts also carry other speaker words (`agent`,
 * `bot`, `customer`, `human`…), a blank first line, CRLF, and lines without a prefix that continue the
 * previous turn. Pure.
 */
export type Speaker = 'assistant' | 'user';

export interface TranscriptTurn {
  /** null: text before any speaker prefix. */
  speaker: Speaker | null;
  text: string;
}

const SPEAKERS: Record<string, Speaker> = {
  assistant: 'assistant',
  agent: 'assistant',
  bot: 'assistant',
  ai: 'assistant',
  user: 'user',
  human: 'user',
  customer: 'user',
  caller: 'user',
};

const TURN_START = /^\s*(assistant|agent|bot|ai|user|human|customer|caller)\s*:\s?(.*)$/i;

/**
 * Splits a transcript such as "assistant: Hello\nuser: Hi" into turns. A line without a known
 * speaker prefix continues the previous turn; consecutive lines of one speaker stay separate turns
 * (each line is one utterance in the service's transcripts).
 */
export function parseTranscript(text: string | null | undefined): TranscriptTurn[] {
  if (!text) return [];
  const turns: TranscriptTurn[] = [];
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const match = TURN_START.exec(line);
    if (match) {
      turns.push({ speaker: SPEAKERS[match[1]!.toLowerCase()]!, text: match[2]!.trim() });
      continue;
    }
    const trimmed = line.trim();
    if (!trimmed) continue;
    const last = turns[turns.length - 1];
    if (last) last.text = last.text ? `${last.text}\n${trimmed}` : trimmed;
    else turns.push({ speaker: null, text: trimmed });
  }
  return turns.filter((t) => t.text !== '' || t.speaker !== null);
}
