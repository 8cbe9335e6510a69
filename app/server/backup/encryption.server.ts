import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from "node:crypto";
import { Transform, type TransformCallback } from "node:stream";

/*
 * An encrypted backup (BACKUP_KEY, decisions 0117 and 0129): the archive cut in 64 KiB pieces, each sealed with
 * AES-256-GCM (authenticated: a changed byte is refused, not restored), the key derived from BACKUP_KEY and a
 * random salt with scrypt. Each piece's nonce holds its number and its additional data says whether it is
 * the last one, so that pieces cannot be reordered, dropped or cut off at the end unnoticed (the STREAM
 * construction). File: MAGIC, salt (16), nonce prefix (8), then pieces of [length (4)][ciphertext][tag (16)].
 * The key is never written anywhere by the site.
 */

export const ENCRYPTED_MAGIC = Buffer.from("STUDIO-SAUVEGARDE-CHIFFREE-1\n", "ascii");
const PIECE = 64 * 1024;
const TAG = 16;
const SALT = 16;
const PREFIX = 8;

/** The encryption key of BACKUP_KEY and a salt (scrypt: a guessed passphrase costs an attacker dearly). */
function keyOf(passphrase: string, salt: Buffer): Buffer {
  return scryptSync(passphrase, salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
}

function nonceOf(prefix: Buffer, index: number): Buffer {
  const nonce = Buffer.alloc(12);
  prefix.copy(nonce, 0);
  nonce.writeUInt32BE(index, 8);
  return nonce;
}

const additionalData = (last: boolean) => Buffer.from([last ? 1 : 0]);

/** The archive is encrypted and the key given does not open it (or it was changed on the way). */
export class WrongKeyError extends Error {
  override name = "WrongKeyError";
}

/** Seals what flows through it with `passphrase`. */
export function encryptStream(passphrase: string): Transform {
  const salt = randomBytes(SALT);
  const prefix = randomBytes(PREFIX);
  const key = keyOf(passphrase, salt);
  let index = 0;
  let pending = Buffer.alloc(0);
  let started = false;
  const seal = (piece: Buffer, last: boolean) => {
    const cipher = createCipheriv("aes-256-gcm", key, nonceOf(prefix, index));
    cipher.setAAD(additionalData(last));
    index += 1;
    const sealed = Buffer.concat([cipher.update(piece), cipher.final(), cipher.getAuthTag()]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(sealed.length, 0);
    return Buffer.concat([length, sealed]);
  };
  const start = (stream: Transform) => {
    if (!started) stream.push(Buffer.concat([ENCRYPTED_MAGIC, salt, prefix]));
    started = true;
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      start(this);
      pending = Buffer.concat([pending, chunk]);
      // Keep at least one byte back: the last piece must be sealed as the last.
      while (pending.length > PIECE) {
        this.push(seal(pending.subarray(0, PIECE), false));
        pending = pending.subarray(PIECE);
      }
      done();
    },
    flush(done: TransformCallback) {
      start(this);
      this.push(seal(pending, true));
      done();
    },
  });
}

/** Opens what `encryptStream(passphrase)` sealed; a wrong key, a change or a missing end is an error. */
export function decryptStream(passphrase: string): Transform {
  let pending = Buffer.alloc(0);
  let key: Buffer | undefined;
  let prefix: Buffer | undefined;
  let index = 0;
  let ended = false;
  const header = ENCRYPTED_MAGIC.length + SALT + PREFIX;
  const open = (sealed: Buffer, last: boolean): Buffer | null => {
    if (!key || !prefix) return null;
    const decipher = createDecipheriv("aes-256-gcm", key, nonceOf(prefix, index));
    decipher.setAAD(additionalData(last));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG));
    try {
      return Buffer.concat([
        decipher.update(sealed.subarray(0, sealed.length - TAG)),
        decipher.final(),
      ]);
    } catch {
      return null;
    }
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      pending = Buffer.concat([pending, chunk]);
      if (!key) {
        if (pending.length < header) return done();
        if (!pending.subarray(0, ENCRYPTED_MAGIC.length).equals(ENCRYPTED_MAGIC)) {
          return done(new WrongKeyError("not an encrypted backup"));
        }
        const salt = pending.subarray(ENCRYPTED_MAGIC.length, ENCRYPTED_MAGIC.length + SALT);
        prefix = Buffer.from(pending.subarray(ENCRYPTED_MAGIC.length + SALT, header));
        key = keyOf(passphrase, salt);
        pending = pending.subarray(header);
      }
      while (pending.length >= 4) {
        const length = pending.readUInt32BE(0);
        if (length < TAG || length > PIECE + TAG) return done(new WrongKeyError("damaged piece"));
        if (pending.length < 4 + length) break;
        const sealed = pending.subarray(4, 4 + length);
        // The last piece says so itself (its additional data): one cut off at the end is missed.
        let last = false;
        let plain = open(sealed, false);
        if (plain === null) {
          last = true;
          plain = open(sealed, true);
        }
        if (plain === null) return done(new WrongKeyError("piece does not open"));
        if (ended) return done(new WrongKeyError("data after the last piece"));
        ended = last;
        index += 1;
        pending = pending.subarray(4 + length);
        this.push(plain);
      }
      done();
    },
    flush(done: TransformCallback) {
      if (!ended || pending.length > 0) return done(new WrongKeyError("archive cut short"));
      done();
    },
  });
}

/** Whether a file's first bytes are those of an encrypted backup. */
export function isEncrypted(start: Buffer): boolean {
  return start.subarray(0, ENCRYPTED_MAGIC.length).equals(ENCRYPTED_MAGIC);
}
