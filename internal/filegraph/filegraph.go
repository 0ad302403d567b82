// Package filegraph draws the arrows between the files of one Go package:
// file A points at file B when A uses a package-level name, a method or a
// field that B declares. The house rule is that inside a package these
// arrows run one way (no cycle), and TestOneWay holds the packages rebuilt
// so far to it. Only the package's own non-test files are
// read, and only with the standard library: imports are stand-ins, so
// nothing outside the package is resolved, which the arrows do not need.
package filegraph

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Graph is the arrows between a package's files, by file name.
type Graph struct {
	Files  []string                       // sorted
	Lines  int                            // of all Files
	Arrows map[string]map[string][]string // from → to → the names used, sorted
}

// stub imports every package as an empty one, so that the check resolves
// what the package itself declares and nothing else.
type stub struct{}

func (stub) Import(path string) (*types.Package, error) {
	name := path[strings.LastIndex(path, "/")+1:]
	if i := strings.LastIndexAny(name, ".-"); i >= 0 {
		name = name[i+1:]
	}
	p := types.NewPackage(path, name)
	p.MarkComplete()
	return p, nil
}

// Load reads the non-test Go files of the package in dir and returns the
// arrows between them.
func Load(dir string) (*Graph, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	g := &Graph{Arrows: map[string]map[string][]string{}}
	for _, e := range ents {
		n := e.Name()
		if !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
		g.Files = append(g.Files, n)
		g.Lines += fset.File(f.Pos()).LineCount()
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("filegraph: no Go files in %s", dir)
	}
	slices.Sort(g.Files)
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: stub{}, Error: func(error) {}} // errors: the stand-in imports
	pkg, _ := conf.Check(files[0].Name.Name, fset, files, info)
	seen := map[[3]string]bool{}
	for id, obj := range info.Uses {
		if obj == nil || obj.Pkg() != pkg || !obj.Pos().IsValid() {
			continue
		}
		declared := obj.Parent() == pkg.Scope() // a package-level name
		if v, ok := obj.(*types.Var); ok && v.IsField() {
			declared = true
		}
		if f, ok := obj.(*types.Func); ok && f.Type().(*types.Signature).Recv() != nil {
			declared = true
		}
		from := filepath.Base(fset.Position(id.Pos()).Filename)
		to := filepath.Base(fset.Position(obj.Pos()).Filename)
		if !declared || from == to || seen[[3]string{from, to, obj.Name()}] {
			continue
		}
		seen[[3]string{from, to, obj.Name()}] = true
		if g.Arrows[from] == nil {
			g.Arrows[from] = map[string][]string{}
		}
		g.Arrows[from][to] = append(g.Arrows[from][to], obj.Name())
	}
	for _, m := range g.Arrows {
		for _, names := range m {
			slices.Sort(names)
		}
	}
	return g, nil
}

// NumArrows returns the number of arrows (file pairs).
func (g *Graph) NumArrows() int {
	n := 0
	for _, m := range g.Arrows {
		n += len(m)
	}
	return n
}

// Cycles returns the sets of two or more files that reach each other
// (strongly connected components), each sorted, in the order found.
func (g *Graph) Cycles() [][]string {
	index, low := map[string]int{}, map[string]int{}
	on := map[string]bool{}
	var stack []string
	var out [][]string
	next := 0
	var visit func(v string)
	visit = func(v string) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		on[v] = true
		var tos []string
		for w := range g.Arrows[v] {
			tos = append(tos, w)
		}
		slices.Sort(tos)
		for _, w := range tos {
			if _, ok := index[w]; !ok {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] != index[v] {
			return
		}
		var c []string
		for {
			w := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			on[w] = false
			c = append(c, w)
			if w == v {
				break
			}
		}
		if len(c) > 1 {
			slices.Sort(c)
			out = append(out, c)
		}
	}
	for _, f := range g.Files {
		if _, ok := index[f]; !ok {
			visit(f)
		}
	}
	return out
}

// Back returns, for a cycle, the arrows inside it as "a.go -> b.go: names"
// lines, the ones to cut to break it.
func (g *Graph) Back(cycle []string) []string {
	var out []string
	for _, a := range cycle {
		for _, b := range cycle {
			if names, ok := g.Arrows[a][b]; ok {
				out = append(out, fmt.Sprintf("%s -> %s: %s", a, b, strings.Join(names, " ")))
			}
		}
	}
	slices.Sort(out)
	return out
}
