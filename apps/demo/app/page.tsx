/**
 * The home page: the encrypted notes app (components/NotesApp.tsx) with the server key pin.
 * Pitfall: dynamic (connection()): the pin is read from the environment per request, never baked
 * into the build.
 */
import { connection } from 'next/server';
import { NotesApp } from '../components/NotesApp';
import { serverPin } from '../lib/pin';

export default async function Home() {
  await connection(); // the pin is read from the environment at request time, not baked in at build
  return <NotesApp serverKey={serverPin()} />;
}
