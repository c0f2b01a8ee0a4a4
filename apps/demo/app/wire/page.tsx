/**
 * The wire lab page: what the network sees of an encrypted exchange (components/WireLab.tsx).
 * Pitfall: dynamic (connection()): the pin is read from the environment per request.
 */
import { connection } from 'next/server';
import { WireLab } from '../../components/WireLab';
import { serverPin } from '../../lib/pin';

export default async function WirePage() {
  await connection();
  return <WireLab serverKey={serverPin()} />;
}
