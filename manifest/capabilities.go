package manifest

import "fmt"

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
