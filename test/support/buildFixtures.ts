export const u64Max = 2n ** 64n - 1n
