'use client';
/**
 * The assistant page: `useChat` from @ai-sdk/react with a `DefaultChatTransport` whose `fetch` is
 * the Nen client's, so the prompt goes out sealed and the AI SDK's UI message stream comes back as
 * sealed records, decrypted as they arrive. The model on the server is the AI SDK's mock (offline);
 * the wire panel on the right shows the ciphertext of the same exchanges.
 *
 * Pitfall: the transport is memoised on (serverKey, delayMs), and its `fetch` asks for the Nen
 * client only when called: a transport made per render would restart useChat, and a client made
 * while the server renders the page would have no browser to run in.
 */
import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, type UIMessage } from 'ai';
import { useMemo, useState } from 'react';
import { assistantClient } from '../lib/assistant-wire';
import { AssistantWire } from './AssistantWire';

function textOf(m: UIMessage): string {
  return m.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
}

export function Assistant({ serverKey, delayMs = 40 }: { serverKey?: string; delayMs?: number }) {
  const transport = useMemo(
    () => new DefaultChatTransport<UIMessage>({ api: `/api/chat?delay=${delayMs}`, fetch: (input, init) => assistantClient(serverKey).fetch(input, init) }),
    [serverKey, delayMs],
  );
  const { messages, sendMessage, status, error } = useChat({ transport });
  const [input, setInput] = useState('');
  const busy = status === 'submitted' || status === 'streaming';

  return (
    <div className="lab">
      <section className="lab-intro">
        <h1>Assistant, end-to-end encrypted</h1>
        <p>
          A chat built with the Vercel AI SDK (<code>useChat</code>, <code>streamText</code>). Nen&apos;s <code>fetch</code> is the chat transport: the question
          travels sealed, and every chunk of the answer is sealed on the server the moment the model produces it. The model is the AI SDK&apos;s offline mock;
          it answers about your notes.
        </p>
        <form
          className="ask-form"
          onSubmit={(e) => {
            e.preventDefault();
            const text = input.trim();
            if (!text || busy) return;
            setInput('');
            void sendMessage({ text });
          }}
        >
          <input data-testid="assistant-input" value={input} onChange={(e) => setInput(e.target.value)} placeholder="Ask about your notes…" maxLength={500} />
          <button className="btn primary" type="submit" disabled={busy} data-testid="assistant-send">
            Ask
          </button>
        </form>
        <p className="hint" data-testid="assistant-status">
          {status}
        </p>
        {error && (
          <p className="banner error" data-testid="assistant-error">
            {error.message}
          </p>
        )}
        <div className="chat" data-testid="assistant-messages">
          {messages.map((m) => (
            <div key={m.id} className={`answer ${m.role}`} data-testid={`assistant-msg-${m.role}`}>
              <b>{m.role === 'user' ? 'You' : 'Assistant'}:</b> {textOf(m)}
            </div>
          ))}
        </div>
      </section>
      <section className="pane wire-pane">
        <AssistantWire />
      </section>
    </div>
  );
}
