package pull

import "errors"

// errNoExchange is returned by exchange where the system or the file system
// cannot exchange two names in one step.
var errNoExchange = errors.New("cannot exchange names atomically here")

// errLocked is returned by lockDir when another process holds the lock.
var errLocked = errors.New("locked")
