package program

// This file is what the code analysis does with a read of a secret file
// (flowState.readPath, shellState.readSecret): the read is graded when the
// analysis of the text ends, not where it happens. A read whose content,
// whole or a secret field of it, reaches a sink (the network, a file, a
// command line, a function the analysis does not know, the program's
// output, which an agent's transcript then carries) is a warning, as every
// read of a secret file was; a read of which only structure reaches
// anything (the names of its entries, a count, whether a key is there:
// secretfields.go says which) is a note. The line rules leave a path this
// file graded so to it (Finding).

// A secretRead is one read of a secret file.
type secretRead struct {
	off  int
	path string // normPath of the file
	// built says the path was built at run time or starts at home: the
	// analysis grades the read. A literal path is the line rules'
	// business, and only its structure-only grade is the analysis'.
	built   bool
	escaped bool // its content, or a secret part of it, reached a sink
}

// secretReads are the reads of secret files a text makes, in order.
type secretReads []secretRead

// add records a read of the secret file at p, at byte at, through a path
// built at run time or not, and returns its content: a secret of that
// read, raw text.
func (rs *secretReads) add(p value, at int, built bool) value {
	r := secretRead{off: at, path: normPath(p.s), built: built}
	if len(*rs) >= int(storeEnv)-1 {
		r.escaped = true // more reads than a store can tell apart: graded as any read was
		*rs = append(*rs, r)
		return value{t: tSecret, store: storeAll}
	}
	*rs = append(*rs, r)
	return value{t: tSecret, store: uint8(len(*rs)), shape: fileShape(r.path)}
}

// escape records that v reached a sink: the read its secret came from is
// a warning. A secret of no single read counts against every read.
func (rs secretReads) escape(v value) {
	if v.t&tSecret == 0 || v.store == storeOther || v.store == storeEnv {
		return
	}
	if v.store == 0 || v.store == storeAll || int(v.store) > len(rs) {
		for i := range rs {
			rs[i].escaped = true
		}
		return
	}
	rs[v.store-1].escaped = true
}

// leaked returns the paths of the reads that reached a sink.
func (rs secretReads) leaked() map[string]bool {
	out := map[string]bool{}
	for _, r := range rs {
		if r.escaped {
			out[r.path] = true
		}
	}
	return out
}

// NormPath returns a path as the analysis compares paths: home as "~",
// slashes, lower case (the graded paths of Finding).
func NormPath(p string) string { return normPath(p) }
