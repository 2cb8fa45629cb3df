/** Little-endian 128-bit integers from a DataView (Borsh's u128 and i128). */
export const readU128 = (view: DataView, at: number): bigint => view.getBigUint64(at, true) | (view.getBigUint64(at + 8, true) << 64n)

// The signed high half shifted up, its low 64 bits zero: OR-ing the unsigned low half in adds it.
export const readI128 = (view: DataView, at: number): bigint => view.getBigUint64(at, true) | (view.getBigInt64(at + 8, true) << 64n)
