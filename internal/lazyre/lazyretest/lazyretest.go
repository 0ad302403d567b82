// Package lazyretest finds a package's patterns for its tests. Patterns are
// &lazyre.RE{Expr: ...} literals, which cost nothing at start-up and are
// therefore in no list the program builds: a test reads them from the
// package's source instead, so a pattern cannot be left out of the check.
package lazyretest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/internal/lazyre"
)

// CheckPackage compiles every pattern declared in the non-test Go files of
// dir, failing t on the first that does not compile, on a literal Literals
// cannot read, or when fewer than atLeast are found (a guard against the
// search itself finding nothing). Every package with lazy patterns calls
// it from its TestPatternsCompile.
func CheckPackage(t testing.TB, dir string, atLeast int) {
	t.Helper()
	all, err := Literals(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < atLeast {
		t.Fatalf("%s: %d patterns found, fewer than the %d the package declares", dir, len(all), atLeast)
	}
	if err := lazyre.Check(all...); err != nil {
		t.Errorf("%s: %v", dir, err)
	}
}

// Literals returns a pattern for each lazyre.RE composite literal in the
// non-test Go files of dir, in file and source order. An Expr that is not
// a string literal, a package-level constant or a sum of them is an error, as is a literal without
// an Expr: the check would not see what the program compiles.
func Literals(dir string) ([]*lazyre.RE, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	fset := token.NewFileSet()
	var parsed []*ast.File
	consts := map[string]ast.Expr{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("parse %s: %w", name, err)
		}
		parsed = append(parsed, f)
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
				for _, s := range g.Specs {
					v := s.(*ast.ValueSpec)
					for i, n := range v.Names {
						if i < len(v.Values) {
							consts[n.Name] = v.Values[i]
						}
					}
				}
			}
		}
	}
	var out []*lazyre.RE
	for _, f := range parsed {
		var walkErr error
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok || walkErr != nil || !isRE(lit.Type) {
				return walkErr == nil
			}
			expr, err := exprOf(lit, consts)
			if err != nil {
				walkErr = fmt.Errorf("%s: %w", fset.Position(lit.Pos()), err)
				return false
			}
			out = append(out, &lazyre.RE{Expr: expr})
			return true
		})
		if walkErr != nil {
			return nil, walkErr
		}
	}
	return out, nil
}

// isRE reports whether a literal's type is lazyre.RE.
func isRE(t ast.Expr) bool {
	sel, ok := t.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "RE" {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && x.Name == "lazyre"
}

// exprOf returns the value of a literal's Expr field.
func exprOf(lit *ast.CompositeLit, consts map[string]ast.Expr) (string, error) {
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			return "", fmt.Errorf("a lazyre.RE literal without field names")
		}
		if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Expr" {
			return constString(kv.Value, consts, 0)
		}
	}
	return "", fmt.Errorf("a lazyre.RE literal without an Expr")
}

// constString evaluates a string literal, a package-level constant or a
// sum of them.
func constString(e ast.Expr, consts map[string]ast.Expr, depth int) (string, error) {
	if depth > 64 {
		return "", fmt.Errorf("constants nested too deep")
	}
	switch e := e.(type) {
	case *ast.Ident:
		if v, ok := consts[e.Name]; ok {
			return constString(v, consts, depth+1)
		}
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			return strconv.Unquote(e.Value)
		}
	case *ast.ParenExpr:
		return constString(e.X, consts, depth+1)
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			x, err := constString(e.X, consts, depth+1)
			if err != nil {
				return "", err
			}
			y, err := constString(e.Y, consts, depth+1)
			return x + y, err
		}
	}
	return "", fmt.Errorf("an Expr that is not a sum of string literals and constants")
}
