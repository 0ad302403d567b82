//go:build !mips && !mipsle && !mips64 && !mips64le

package build

// sysOpenat2 is the number of openat2, the same on every Linux
// architecture but MIPS.
const sysOpenat2 = 437
