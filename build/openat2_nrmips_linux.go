//go:build mips || mipsle || mips64 || mips64le

package build

// sysOpenat2 is 0 on MIPS: the dirTree opens folders one name at a time.
const sysOpenat2 = 0
