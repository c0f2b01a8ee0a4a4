import { connection } from 'next/server';
import { WireLab } from '../../components/WireLab';
import { serverPin } from '../../lib/pin';

export default async function WirePage() {
  await connection();
  return <WireLab serverKey={serverPin()} />;
}
