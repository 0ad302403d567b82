//go:build !linux && !darwin

package pull

import "os"

// exchange cannot swap two names in one step here: swap falls back to
// journaled renames.
func exchange(*os.File, string, string) error { return errNoExchange }

// lockDir does not lock here: two pulls into one folder at once are not
// kept apart on this system.
func lockDir(*os.File) error { return nil }
