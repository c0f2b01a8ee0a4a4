/**
 * The assistant page: the streamed encrypted chat (components/Assistant.tsx) with the server key pin.
 * Pitfall: dynamic (connection()): the pin is read from the environment per request.
 */
import { connection } from 'next/server';
import { Assistant } from '../../components/Assistant';
import { serverPin } from '../../lib/pin';

export default async function AssistantPage() {
  await connection(); // the pin is read from the environment at request time, not baked in at build
  return <Assistant serverKey={serverPin()} />;
}
