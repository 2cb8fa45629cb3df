// The part of sodium-native the sandbox uses (its own package ships no types). Arguments are any
// byte array; the functions write into the first ones given.
declare module "sodium-native" {
  const sodium: {
    crypto_sign_seed_keypair(publicKey: Uint8Array, secretKey: Uint8Array, seed: Uint8Array): void
    crypto_sign_detached(signature: Uint8Array, message: Uint8Array, secretKey: Uint8Array): void
    crypto_sign_verify_detached(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean
  }
  export default sodium
}
