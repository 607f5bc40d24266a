// zod/mini speaks English only when told to (classic zod sets this on import). Every module of ours that
// builds a zod/mini schema imports this one first, so a bundle holding only zod/mini (dist/core.js) gives
// the same messages as classic zod: "Invalid input: expected string, received undefined". The setting is
// zod's global one, shared by both forms, and English is what classic zod sets too.
import { config } from 'zod/mini';
import { en } from 'zod/locales';

config(en());
