// Package program is the code analysis lint runs on the programs a skill
// holds: scripts, the fenced blocks of its Markdown, Makefile and
// Dockerfile recipes. Shell is parsed with mvdan.cc/sh; Python,
// JavaScript, PowerShell, Ruby, Perl and PHP are read through a tokenizer
// and evaluator of its own. Within a text it follows what each name may
// hold (a literal, a decoded string, a fetched body, a secret path, a
// home-relative path), constant-folds the strings a program builds, and
// reports the sinks those values reach (execution, an interpreter's stdin,
// a network send, a write to a persistence or agent-configuration place, a
// destructive call) as findings of lint's rules, named by id.
//
// Invariants: it knows nothing of lint (lint imports it, never the other
// way); it reads only the text it is given, never the file system, the
// network or the environment; what it decodes or builds is handed back to
// the caller (Input.Reanalyze) to analyse as the same file would be,
// within a Budget per file; it gives at most one finding per rule, the
// first of the strongest; and it never fails or panics, whatever the text.
package program
