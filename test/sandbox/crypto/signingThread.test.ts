import { randomBytes } from "node:crypto"
import { describe, expect, it } from "vitest"
import { deterministicKeypair, verifySignature } from "../../../src/sandbox/crypto/keypair.ts"
import { SigningThread } from "../../../src/sandbox/crypto/signingThread.ts"

const signers = [deterministicKeypair(1, "a"), deterministicKeypair(1, "b"), deterministicKeypair(1, "c")]
const busy = (ms: number) => {
  const until = performance.now() + ms
  while (performance.now() < until) {}
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Requests until the thread has signed `count` of them (it starts in the background), with work between begin and finish as a transaction's execution would be. */
const signUntilThreadSigned = (thread: SigningThread, count: number, deadlineMs = 10_000) => {
  const deadline = Date.now() + deadlineMs
  const target = thread.counts.thread + count
  const results: Array<{ message: Uint8Array; signatures: Array<Uint8Array> }> = []
  while (thread.counts.thread < target && Date.now() < deadline) {
    const message = new Uint8Array(randomBytes(100 + (results.length % 900)))
    const pending = thread.begin(message, signers.slice(0, 1 + (results.length % 3)))
    busy(0.2)
    results.push({ message, signatures: pending.finish() })
  }
  return results
}

describe("SigningThread", () => {
  it("gives every signer's own Ed25519 signature, in order, whichever thread made it", () => {
    const thread = new SigningThread()
    const results = signUntilThreadSigned(thread, 200)
    expect(thread.counts.thread).toBeGreaterThanOrEqual(200)
    for (const { message, signatures } of results) {
      signatures.forEach((signature, i) => {
        expect(Buffer.from(signature).equals(Buffer.from(signers[i]!.sign(message)))).toBe(true)
        expect(verifySignature(signers[i]!.publicKey, message, signature)).toBe(true)
      })
    }
  })

  it("signs a request here when it is collected before the thread picks it up", () => {
    const thread = new SigningThread()
    signUntilThreadSigned(thread, 1)
    const before = { ...thread.counts }
    // collected at once: the thread may or may not have taken it; either way the signature is right
    for (let i = 0; i < 500; i++) {
      const message = new Uint8Array(randomBytes(200))
      const [signature] = thread.begin(message, signers.slice(0, 1)).finish()
      expect(Buffer.from(signature!).equals(Buffer.from(signers[0]!.sign(message)))).toBe(true)
    }
    expect(thread.counts.thread + thread.counts.here).toBe(before.thread + before.here + 500)
  })

  it("signs here what it cannot hand over (more signers than fit), and again on a thread after the first one idled out", async () => {
    const thread = new SigningThread()
    signUntilThreadSigned(thread, 1)
    const many = [...signers, deterministicKeypair(1, "d"), deterministicKeypair(1, "e")]
    const message = new Uint8Array(randomBytes(300))
    const here = thread.counts.here
    const signatures = thread.begin(message, many).finish()
    expect(thread.counts.here).toBe(here + 1)
    signatures.forEach((signature, i) => expect(verifySignature(many[i]!.publicKey, message, signature)).toBe(true))

    await sleep(1_500)
    const results = signUntilThreadSigned(thread, 20)
    expect(results.length).toBeGreaterThanOrEqual(20)
    for (const { message: signed, signatures: made } of results.slice(-20)) {
      made.forEach((signature, i) => expect(verifySignature(signers[i]!.publicKey, signed, signature)).toBe(true))
    }
  })
})
