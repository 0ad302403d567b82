package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// MaxCapabilities is the most capabilities a skill may list, and
// MaxCapabilityLen the longest name of one.
const (
	MaxCapabilities  = 32
	MaxCapabilityLen = 32
)

// CheckCapabilities reports what is wrong with a skill's list of
// capabilities: each is 1 to MaxCapabilityLen lowercase ASCII letters,
// digits and inner hyphens, the list is sorted bytewise without duplicates
// and holds at most MaxCapabilities. The format names no capability, so an
// analyser may learn new ones without a new format version.
func CheckCapabilities(caps []string) error {
	if len(caps) > MaxCapabilities {
		return fmt.Errorf("capabilities: %d exceeds %d", len(caps), MaxCapabilities)
	}
	for i, c := range caps {
		if c == "" || len(c) > MaxCapabilityLen || c[0] == '-' || c[len(c)-1] == '-' {
			return fmt.Errorf("capabilities: %q is not 1-%d letters, digits and inner hyphens", c, MaxCapabilityLen)
		}
		for j := range len(c) {
			if b := c[j]; !('a' <= b && b <= 'z' || '0' <= b && b <= '9' || b == '-') {
				return fmt.Errorf("capabilities: %q holds %q: only lowercase letters, digits and hyphens", c, b)
			}
		}
		if i > 0 && caps[i-1] >= c {
			return fmt.Errorf("capabilities: %q after %q: not sorted bytewise or duplicated", c, caps[i-1])
		}
	}
	return nil
}

// Capabilities returns skill i's capabilities (Skill.Capabilities),
// reading them from the mapped record in place rather than decoding it:
// what a catalog lists for every skill costs a search of its record. The
// record's members come in struct order and no string holds an unescaped
// quote, so the member is found before the members that may hold nested
// frontmatter values (scriptsWithheld, provenance). nil when there are
// none, or when a mapped file changed under the bundle.
func (b *Bundle) Capabilities(i int) (caps []string) {
	err := b.access(func() error {
		r := b.rec(i)
		rec := b.man[r.off+len(recordPrefix)+r.entryLen : r.off+r.len]
		for _, stop := range []string{`,"scriptsWithheld":`, `,"provenance":`} {
			if k := bytes.Index(rec, []byte(stop)); k >= 0 {
				rec = rec[:k]
			}
		}
		const key = `,"capabilities":`
		k := bytes.Index(rec, []byte(key))
		if k < 0 {
			return nil
		}
		rest := rec[k+len(key):]
		end := bytes.IndexByte(rest, ']')
		if end < 0 {
			return nil
		}
		if err := json.Unmarshal(rest[:end+1], &caps); err != nil || CheckCapabilities(caps) != nil {
			caps = nil
		}
		return nil
	})
	if err != nil {
		return nil
	}
	return caps
}
