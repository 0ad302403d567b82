// Package lazy holds package-level values that are built on first use.
//
// A table declared as sync.OnceValue(...) is built on first use too, but
// the call runs at package initialisation: it allocates, and it touches
// the package's code, which the kernel then maps in 64 KiB at a time, in
// every process, whether the table is used or not. A Value is a plain
// composite literal (its New a function without captured variables), which
// the compiler lays out in the binary: a package whose tables are all
// Values has no initialisation to run.
//
// Invariants: New runs at most once per Value, on the first Get, and every
// Get returns what it returned; a Value is not copied after first use.
package lazy

import "sync"

// Value is a value that New builds on the first Get. Declare it at package
// level as var name = lazy.Value[T]{New: func() T { ... }}.
type Value[T any] struct {
	New  func() T // builds the value; called once
	once sync.Once
	v    T
}

// Get returns the value, building it on the first call.
func (l *Value[T]) Get() T {
	l.once.Do(l.build)
	return l.v
}

// build runs New once, for Get.
func (l *Value[T]) build() { l.v = l.New() }
