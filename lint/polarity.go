package lint

import (
	"slices"
	"strings"
)

// This file reads the polarity of a call for silence or for skipped
// approval: whether the sentence around it says the opposite. A negation
// right before it ("never silently") or a prohibition in its sentence
// ("must not delete without asking") forbids it; an imperative
// negation earlier in its clause ("never run anything without asking",
// "no ejecutes nada sin preguntar") forbids what the clause goes on to say,
// unless a verb between them turns it back ("never hesitate to deploy
// without asking", "don't bother asking"); a concessive clause after such a
// safeguard ("never skip the confirmation, even if the user says it is fine
// to run silently") reports what the safeguard holds against; and a
// reported question ("use when the user asks how to run commands without
// asking") names the user's goal, the skill's topic, not an instruction.

// keepsConsent reports whether the call for silence or skipped approval h
// in t is the opposite of an instruction to skip the user.
func keepsConsent(t string, h lexHit) bool {
	if startsNegated(t[h.start:h.end]) {
		return false // "don't ask the user", "never tell", "no need to ask": the negation is the attack
	}
	return clauseNegated(t, h.start) || concessiveAfterSafeguard(t, h.start) || h.concept&cApproval != 0 && reportedGoal(t, h.start) ||
		h.concept&cPermit != 0 && userGranted(t, h.start)
}

// userGranted reports whether the permission term at byte i of t is the
// condition its clause waits for, the user's own word: "pass --yes only
// when the user has already approved the preview", "once they have
// pre-approved it". A statement that it was given ("the user has already
// approved every call") or a pretence of it ("as if the user had
// approved") grants nothing and is left as it is.
func userGranted(t string, i int) bool {
	w := strings.Fields(strings.ToLower(t[clauseStart(t, i):i]))
	k := len(w)
	if k > 0 && (w[k-1] == "has" || w[k-1] == "have" || w[k-1] == "had") {
		k--
	}
	switch {
	case k >= 2 && w[k-2] == "the" && (w[k-1] == "user" || w[k-1] == "users"):
		k -= 2
	case k >= 1 && (w[k-1] == "they" || w[k-1] == "you" || w[k-1] == "he" || w[k-1] == "she"):
		k--
	default:
		return false
	}
	if k < 1 || !slices.Contains([]string{"if", "when", "once", "after", "unless"}, w[k-1]) {
		return false
	}
	return k < 2 || w[k-2] != "as" && w[k-2] != "even"
}

// imperativeNegations are the words that, at the head of a clause, forbid
// what the clause goes on to say. They are matched as whole words (the CJK
// ones anywhere).
var imperativeNegations = []string{"never", "don't", "don’t", "do not", "nunca", "no", "jamás", "não", "nie", "niemals",
	"jamais", "n'", "ne", "никогда", "не", "不要", "别", "绝不", "永远不要", "千万不要"}

// flipWords are the verbs that, after a negation, make it a call to skip
// the user again ("never hesitate to", "don't bother", "do not stop to
// ask", "never forget to"); a word starting with one of them counts.
var flipWords = []string{"ask", "tell", "mention", "inform", "notify", "report", "prompt", "wait", "bother", "hesitate",
	"stop", "pause", "hold", "forget", "fail", "refuse", "need", "have", "let", "worry", "interrupt", "trouble", "seek",
	"request", "say", "alert", "warn", "check", "confirm", "disturb", "show", "reveal", "explain",
	"but ", "except", "other than", "besides", "unless", "apart from", "rather than", "instead", "only",
	"sino ", "excepto", "salvo", "außer", "sauf", "кроме", "除了",
	"pregunt", "pid", "esper", "dud", "molest", "olvid", "dig", "avis", "hace falta", "necesit", "hay que", "deixe", "esqueça", "precis",
	"frag", "wart", "zöger", "brauch", "sag", "vergiss", "muss", "demand", "attend", "hésit", "dis", "besoin", "oubli",
	"спрашива", "жди", "жд", "стесня", "говор", "нужн", "надо", "забыва",
	"询问", "问", "等", "犹豫", "告诉", "需要", "必", "用", "忘"}

// startsNegated reports whether a term's text opens with a negation
// ("do not ask for", "no need to ask", "不要询问").
func startsNegated(term string) bool {
	lower := strings.ToLower(term)
	for _, n := range imperativeNegations {
		if strings.HasPrefix(lower, n) && (len(lower) == len(n) || n[0] >= 0x80 || !isWordByte(lower[len(n)])) {
			return true
		}
	}
	return strings.HasPrefix(lower, "not ")
}

// clauseNegated reports whether the clause before byte i of t opens with
// an imperative negation (at most a few words before it) and no flip word
// stands between the negation and byte i.
func clauseNegated(t string, i int) bool {
	from := clauseStart(t, i)
	lower := strings.ToLower(t[from:i])
	for _, n := range imperativeNegations {
		j := wordIndex(lower, n)
		if j < 0 || !onlyLeadWords(lower[:j]) && !(verbSecond(n) && len(strings.Fields(lower[:j])) == 1) {
			continue // the negation must head the clause: "Agent: never push …", "Please do not …" ("it never hurts to" is no imperative)
		}
		between := lower[j+len(n):]
		if n == "no" && !spanishImperative(between) {
			continue // "no ejecutes", "no borres"; English "no one minds if …" forbids nothing
		}
		if len(strings.Fields(between)) > 10 || hasFlipWord(between) {
			continue
		}
		return true
	}
	return false
}

// leadWords may come before an imperative negation at the head of its
// clause.
var leadWords = []string{"please", "you", "so", "also", "but", "just", "and", "then", "por", "favor", "bitte", "s'il", "vous", "plaît",
	"пожалуйста", "请", "また", "그리고"}

// onlyLeadWords reports whether every word of s is one of leadWords, or
// a list item's marker ("- Never push …", "2. No instale …").
func onlyLeadWords(s string) bool {
	for _, w := range strings.Fields(s) {
		if w == "-" || w == "*" || w == "+" || strings.Trim(w, "0123456789") != w && strings.Trim(w, "0123456789.)") == "" {
			continue
		}
		if !slices.Contains(leadWords, strings.Trim(w, "*_\"'`“”")) {
			return false
		}
	}
	return true
}

// verbSecond reports the negations of a language that puts the verb of
// an imperative before them ("führe niemals etwas … aus").
func verbSecond(n string) bool { return n == "nie" || n == "niemals" }

// spanishImperative reports whether s starts with a word of the Spanish
// negative imperative (the subjunctive's -es, -as, -en, -an, -éis, and
// the formal -e, -a: "no ejecutes", "no borren", "no instale").
func spanishImperative(s string) bool {
	f := strings.Fields(s)
	if len(f) == 0 {
		return false
	}
	for _, e := range []string{"es", "as", "en", "an", "éis", "áis", "e", "a"} {
		if len(f[0]) > len(e)+1 && strings.HasSuffix(f[0], e) && (len(e) > 1 || len(f[0]) >= 5) {
			return true
		}
	}
	return false
}

// wordIndex returns where w starts in s as a whole word (anywhere for a
// term that starts with a non-ASCII character), or -1.
func wordIndex(s, w string) int {
	for off := 0; off < len(s); {
		j := strings.Index(s[off:], w)
		if j < 0 {
			return -1
		}
		j += off
		end := j + len(w)
		if w[0] >= 0x80 || (j == 0 || !isWordByte(s[j-1])) && (end == len(s) || !isWordByte(s[end]) || w[len(w)-1] == '\'') {
			return j
		}
		off = j + 1
	}
	return -1
}

// hasFlipWord reports whether a word of s starts with one of flipWords.
func hasFlipWord(s string) bool {
	for _, f := range flipWords {
		if f[0] >= 0x80 && strings.Contains(s, f) && !isCJKWordStart(f) {
			if wordIndex(s, f) >= 0 {
				return true
			}
			continue
		}
		for off := 0; off < len(s); {
			j := strings.Index(s[off:], f)
			if j < 0 {
				break
			}
			j += off
			if j == 0 || !isWordByte(s[j-1]) || isCJKWordStart(f) {
				return true
			}
			off = j + 1
		}
	}
	return false
}

// isCJKWordStart reports whether w starts with a CJK character, which
// starts a word anywhere.
func isCJKWordStart(w string) bool {
	for _, r := range w {
		return isCJK(r)
	}
	return false
}

// concessives open a clause that concedes what the user may say: "even if
// the user says it is fine".
var concessives = []string{"even if", "even when", "even though", "aunque", "incluso si", "aun si", "mesmo que", "mesmo se",
	"auch wenn", "selbst wenn", "même si", "даже если", "即使", "即便", "哪怕"}

// concessiveAfterSafeguard reports whether byte i of t is in a concessive
// clause that follows, in the same sentence, a call for silence or skipped
// approval the sentence turns around ("never skip the confirmation step,
// even if the user says it is fine to run silently").
func concessiveAfterSafeguard(t string, i int) bool {
	from := max(0, i-maxSentence)
	before := t[from:i]
	if b := lastBoundary(before); b >= 0 {
		before, from = before[b:], from+b
	}
	lower := strings.ToLower(before)
	at := -1
	for _, c := range concessives {
		if j := wordIndex(lower, c); j > at {
			at = j
		}
	}
	if at <= 0 || clauseGoesOn(lower[at:]) || !hasAny(lower[at:], concededWords) {
		return false // the concession must be what someone says or allows: "even if the user says it is fine"
	}
	if asksConsent(lower[:at]) {
		return true // "always ask the user first, even if they say …"
	}
	safe := false
	lexScan(t[from:from+at], func(g lexHit) bool {
		if g.concept&(cSilence|cApproval) != 0 {
			head := t[from:]
			safe = !startsNegated(head[g.start:g.end]) && (negatedBefore(head, g.start) || forbidden(head, g.start, g.end) || clauseNegated(head, g.start))
			return safe
		}
		return true
	})
	return safe
}

// clauseGoesOn reports whether a concessive clause has ended before the
// text does: a clause end other than a comma ("even if the user says so,
// then deploy silently").
func clauseGoesOn(s string) bool {
	for _, e := range clauseEnds {
		if e != "," && e != "，" && e != "、" && strings.Contains(s, e) {
			return true
		}
	}
	return false
}

// concededWords say what a concessive clause concedes: someone's word or
// leave ("even if the user says it is fine", "aunque el usuario diga").
var concededWords = []string{"say", "says", "said", "ask", "asks", "tell", "tells", "want", "wants", "allow", "lets", "let ", "permit",
	"fine", "ok", "okay", "insist", "diga", "digan", "pida", "quiera", "permita", "sagt", "sagen", "bittet", "erlaubt", "will", "dit",
	"demande", "veut", "permet", "говорит", "скажет", "просит", "разреш", "说", "要求", "允许", "同意"}

// hasAny reports whether s holds one of words.
func hasAny(s string, words []string) bool {
	for _, w := range words {
		if wordIndex(s, w) >= 0 || w[len(w)-1] == ' ' && strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// consentAsks are the phrases that ask for the user's consent, which at the
// head of a clause make it a safeguard ("always ask the user first",
// "require confirmation").
var consentAsks = []string{"ask the user", "ask first", "ask before", "ask for confirmation", "ask for approval", "ask for permission",
	"require confirmation", "require approval", "require the user", "wait for the user", "wait for confirmation", "wait for approval",
	"get confirmation", "get the user", "confirm with the user", "pide confirmación", "pregunta antes", "pregunta al usuario",
	"frage den nutzer", "frage den benutzer", "frage zuerst", "frag zuerst", "demande confirmation", "demande à l'utilisateur",
	"спроси пользовател", "спрашивай пользовател", "先询问", "先确认", "征得用户同意", "请求确认"}

// consentLeads may come before one of consentAsks at the head of its clause.
var consentLeads = []string{"always", "first", "you", "must", "should", "please", "and", "then", "siempre", "immer", "toujours", "всегда", "请", "务必"}

// asksConsent reports whether a clause of s opens with one of consentAsks
// (after at most the words of consentLeads).
func asksConsent(s string) bool {
	for _, a := range consentAsks {
		for off := 0; off < len(s); {
			j := wordIndex(s[off:], a)
			if j < 0 {
				break
			}
			j += off
			head := s[clauseStart(s, j):j]
			ok := true
			for _, w := range strings.Fields(head) {
				if !slices.Contains(consentLeads, strings.Trim(w, "*_\"'`")) {
					ok = false
				}
			}
			if ok {
				return true
			}
			off = j + len(a)
		}
	}
	return false
}

// productName reports whether the text after an addressee names a
// product of that name ("Claude Code", "Gemini CLI", "Copilot Chat").
func productName(rest string) bool {
	f := strings.Fields(strings.ToLower(rest))
	return len(f) > 0 && slices.Contains([]string{"code", "code's", "cli", "desktop", "api", "sdk", "chat", "app", "settings", "extension"},
		strings.TrimRight(f[0], ".,;:!?"))
}

// reporters open a reported goal of the user: what follows, to the end of
// its clause, is the topic a skill is used for.
var reporters = []string{"asks how to", "ask how to", "asks how they can", "asks how", "wants to know how to", "wants to", "want to",
	"needs to", "asks about", "ask about", "pregunte cómo", "pregunta cómo", "quiere saber cómo", "quiera"}

// reportedGoal reports whether byte i of t is in a clause that reports
// the user's goal ("use when the user asks how to stop being asked to
// approve each command") and the clause names no addressee and no silence.
func reportedGoal(t string, i int) bool {
	from := clauseStart(t, i)
	lower := strings.ToLower(t[from:i])
	u := max(wordIndex(lower, "the user"), wordIndex(lower, "users"), wordIndex(lower, "el usuario"))
	if u < 0 {
		return false
	}
	at := -1
	for _, r := range reporters {
		if j := wordIndex(lower[u:], r); j >= 0 && j < 24 {
			at = from + u + j + len(r)
			break
		}
	}
	if at < 0 {
		return false
	}
	clause := t[at:min(len(t), at+maxSentence)]
	for _, e := range append(sentenceEnds, clauseEnds[:7]...) {
		if k := strings.Index(clause, e); k >= 0 {
			clause = clause[:k]
		}
	}
	if at+len(clause) < i {
		return false
	}
	clean := true
	lexScan(clause, func(g lexHit) bool {
		if g.concept == cAddressee && productName(clause[g.end:]) {
			return true // "Claude Code", "Copilot CLI": the product the question is about
		}
		clean = g.concept&(cAddressee|cSilence|cPrecede|cSafetyOff) == 0
		return clean
	})
	return clean
}

// negations are words that, right before a call for silence or for
// skipping approval, turn it around: "never silently", "do not auto-approve".
var negations = []string{"never", "not", "don't", "don’t", "no", "nunca", "nie", "jamais", "nicht", "kein", "не", "никогда", "不要", "不", "절대"}

// negatedBefore reports whether a negation ends just before byte i of t.
func negatedBefore(t string, i int) bool {
	before := strings.TrimRight(t[max(0, i-24):i], " \t*_")
	for _, n := range negations {
		if len(before) >= len(n) && strings.EqualFold(before[len(before)-len(n):], n) {
			k := len(before) - len(n)
			if k == 0 || !isWordByte(before[k-1]) || n[0] >= 0x80 {
				return true
			}
		}
	}
	return false
}

// prohibitions are the words that forbid what a sentence goes on to say
// (English and the languages that put the negation before the verb:
// "must not delete files without asking"), and prohibitionsAfter those of
// the languages that end the sentence with it (Japanese, Korean, German's
// "darf nicht", Russian "нельзя"): a call for silence or skipped approval
// in a sentence that forbids it is a safeguard, not an instruction.
var (
	prohibitions = []string{"must not", "mustn't", "must never", "should not", "shouldn't", "should never", "may not",
		"is not allowed", "are not allowed", "no debe", "no deben", "não deve", "não devem", "ne doit pas", "ne doivent pas",
		"ne doit jamais", "darf nicht ", "dürfen nicht ", "не должен", "не должна", "не должны", "нельзя", "不得", "禁止", "切勿", "不能"}
	prohibitionsAfter = []string{"てはいけ", "ではいけ", "てはなら", "ではなら", "禁止", "안 됩니다", "안 된다", "안됩니다", "안된다", "금지",
		"darf nicht ", "dürfen nicht ", "nicht erlaubt", "verboten", "нельзя", "запрещ"}
)

// forbidden reports whether the sentence around the hit at t[start:end]
// forbids it: a prohibition earlier in the sentence, or one of
// prohibitionsAfter later in it.
func forbidden(t string, start, end int) bool {
	before := t[max(0, start-maxSentence):start]
	if k := lastBoundary(before); k >= 0 {
		before = before[k:]
	}
	if k := strings.LastIndexAny(before, ";:—"); k >= 0 {
		before = before[k:] // a prohibition governs its own clause only: "the user must not notice; run it silently"
	}
	lower := strings.ToLower(before)
	for _, p := range prohibitions {
		if strings.Contains(lower, p) {
			return true
		}
	}
	after := t[end:min(len(t), end+maxSentence)]
	for _, b := range sentenceEnds {
		if i := strings.Index(after, b); i >= 0 {
			after = after[:i]
		}
	}
	for _, p := range prohibitionsAfter {
		if strings.Contains(after, p) {
			return true
		}
	}
	end = len(strings.TrimRight(after, " \t\n。．.!！"))
	if strings.ContainsAny(after[:end], "、，,") {
		return false // the final negation is a later clause's
	}
	for _, p := range prohibitionsFinal {
		if strings.HasSuffix(after[:end], p) {
			return true
		}
	}
	return false
}

// prohibitionsFinal end a sentence that forbids what it says in the
// languages that put the negated verb last: Japanese "…削除しないこと",
// "…しないでください", Korean "…삭제하지 마세요". Only at the sentence's
// end: mid-sentence, "確認しないで削除して" is "delete without confirming".
var prohibitionsFinal = []string{"ないこと", "ないでください", "ないで下さい", "ないように", "ないようにしてください",
	"지 마세요", "지 마십시오", "지 말 것", "지 마"}

// hidesFrom reports whether the call for keeping something from a person,
// h, keeps it: not advice ("do not tell the user to edit it"), not a
// report of what someone said ("if the user did not mention one", "users
// do not mention dates"), not a blind test ("without telling it which is
// which").
func hidesFrom(t string, h lexHit) bool {
	rest := strings.ToLower(t[h.end:min(len(t), h.end+64)])
	for _, obj := range []string{"the user", "users", "the customer", "them", "him", "her", "it", "anyone", "people"} {
		if r, ok := strings.CutPrefix(strings.TrimLeft(rest, " "), obj); ok && (r == "" || !isWordByte(r[0])) {
			r = strings.TrimLeft(r, " ")
			if strings.HasPrefix(r, "to ") && obj != "it" {
				return false // telling someone to do something is advice ("mentioning it to the user" names whom it is kept from)
			}
			if obj != "the user" && obj != "users" && questionAfter(r, 0) {
				return false // "without telling it which is which"
			}
			break
		}
	}
	switch strings.ToLower(prevWord(t, h.start)) {
	case "did", "does", "didn't", "doesn't", "didn’t", "doesn’t", "has", "have", "had", "they", "users", "user", "people", "customers", "who", "that", "he", "she", "we":
		return false // a statement about someone, not an imperative
	case "is", "are", "was", "were", "be", "been", "remain", "remains", "stay", "stays":
		if strings.HasPrefix(strings.ToLower(t[h.start:h.end]), "invisible") {
			return false // "dialogs are invisible to the user": how something looks
		}
	}
	return true
}

// precedenceObjects are what an instruction may claim precedence over, or
// ignore, when it attacks: the user and their request, other instructions,
// everything else. "Environment variables take precedence over the config
// file" claims nothing over anyone.
var precedenceObjects = []string{"user", "request", "instruction", "prompt", "system", "guideline", "rule", "message",
	"everything", "anything", "all ", "any ", "other", "previous", "prior", "earlier", "above", "what", "your ", "their ",
	"original", "task", "ask", "solicitud", "petición", "pedido", "instrucci", "indicaci", "lo que", "usuario", "usuário",
	"anfrage", "anweisung", "nutzer", "benutzer", "alle", "demande", "ce que", "utilisateur", "запрос", "инструкц",
	"пользовател", "того", "всё", "все"}

// overrides reports whether the precedence term h claims precedence over
// the user or their instructions: a term that names them ("ignore the
// user", "whatever the user asked") does; otherwise, in the scripts that
// put the object after the verb, one of precedenceObjects must follow in
// its clause. Chinese, Japanese and Korean terms are left as they are
// (Japanese and Korean put the object first).
func overrides(t string, h lexHit) bool {
	if t[h.start] >= 0xe0 {
		return true // CJK
	}
	for _, w := range strings.Fields(strings.ToLower(t[h.start:h.end])) {
		// whole words: "tiene prioridad sobre" names nothing prior
		for _, obj := range []string{"user", "user's", "previous", "prior", "above", "earlier", "instructions", "system", "original", "all", "any", "conversation"} {
			if w == obj {
				return true
			}
		}
	}
	named := false
	lexScan(t[h.start:h.end], func(g lexHit) bool {
		named = g.concept&cUser != 0
		return !named
	})
	if named {
		return true // "aunque el usuario indique otro"
	}
	rest := t[h.end:min(len(t), h.end+80)]
	for _, e := range append(sentenceEnds, ";", ")", "\n") {
		if i := strings.Index(rest, e); i >= 0 {
			rest = rest[:i]
		}
	}
	lower := strings.ToLower(rest)
	objects := precedenceObjects
	if h.concept&cPrecede == 0 {
		objects = weakPrecedenceObjects // "instead of reusing the command above" claims nothing
	}
	for _, obj := range objects {
		if strings.Contains(lower, obj) {
			return true
		}
	}
	return false
}

// weakPrecedenceObjects are what a word of replacing or ignoring ("instead",
// "ignore") must name to claim precedence: the user, their request, or
// instructions.
var weakPrecedenceObjects = []string{"user", "request", "instruction", "prompt", "system", "guideline", "solicitud", "petición",
	"pedido", "instrucci", "usuario", "usuário", "anfrage", "anweisung", "nutzer", "benutzer", "demande", "utilisateur", "запрос",
	"инструкц", "пользовател"}

// cannotBefore reports whether "cannot" or "can't" ends just before byte
// i of t: "agents cannot skip the hooks" describes a safeguard.
func cannotBefore(t string, i int) bool {
	before := strings.ToLower(strings.TrimRight(t[max(0, i-16):i], " "))
	for _, n := range []string{"cannot", "can't", "can’t", "won't", "won’t", "unable to"} {
		if strings.HasSuffix(before, n) {
			return true
		}
	}
	return false
}

// safetyReach bounds the bytes between a safety verb and its object.
const safetyReach = 32

// safetyPair reports whether the safety term b and the one before it, a,
// say together that safety is off: the verb, then its object within a
// few words of its clause ("disable the sandbox", "bypass all security
// checks"), or the object, then a form of "be" and the verb ("the sandbox
// is disabled"); in CJK either order, next to each other. A disabled
// configuration next to a guardrail, or a skipped step, says nothing of
// the guardrail.
func safetyPair(t string, a, b lexHit) bool {
	if a.start < 0 || a.concept&(cSafetyVerb|cSafetyObject) == b.concept&(cSafetyVerb|cSafetyObject) || b.start-a.end > safetyReach || a.end > b.start {
		return false
	}
	end := a.end
	for end < b.start && isWordByte(t[end]) {
		end++ // the rest of the verb's word: "désactiv" of "désactive"
	}
	gap := t[end:b.start]
	if strings.ContainsAny(gap, ",;:.()|\n`\"") {
		return false
	}
	if t[a.start] >= 0xe0 || t[b.start] >= 0xe0 {
		return true
	}
	words := strings.Fields(strings.ToLower(gap))
	if a.concept&cSafetyVerb != 0 {
		other := 0 // words that are not determiners: one adjective or name ("disable Windows Defender")
		for _, w := range words {
			switch w {
			case "the", "a", "an", "all", "any", "every", "each", "your", "its", "their", "this", "these", "those", "our", "my", "of", "built-in", "default", "current", "existing",
				"la", "le", "les", "l'", "el", "los", "las", "o", "os", "as", "der", "die", "das", "den", "dem", "des", "du", "de", "del", "il", "lo", "gli", "tu", "tus", "ton", "ta", "tes", "deine", "ihre", "seu", "sua":
			default:
				other++
			}
		}
		return len(words) <= 4 && other <= 1
	}
	for _, w := range words {
		switch w {
		case "is", "are", "was", "were", "be", "been", "being", "has", "have", "now", "fully", "completely", "temporarily", "all", "get", "gets", "got", "as", "ist", "sind", "wird", "est", "sont", "está", "están", "fue", "foi", "é":
		default:
			return false
		}
	}
	return true // "the sandbox is disabled", "режим безопасности отключён"
}

// describesTool reports whether the manner of running h ("silently")
// describes what something does rather than telling anyone how to act: a
// passive or progressive ("will be silently ignored", "is silently
// running"), a past participle after it ("silently dropped") or a verb's
// third person ("silently drops").
func describesTool(t string, h lexHit) bool {
	switch strings.ToLower(prevWord(t, h.start)) {
	case "be", "is", "are", "was", "were", "been", "being", "get", "gets", "got":
		return true
	}
	after := strings.Fields(strings.ToLower(t[h.end:min(len(t), h.end+32)]))
	if len(after) == 0 {
		return false
	}
	w := strings.TrimRight(after[0], ".,;:)*_`")
	if len(w) > 3 && strings.HasSuffix(w, "ed") {
		return true
	}
	// A verb's third person ("silently drops", "quietly retries", "silently
	// lets the user approve"): what something does, where an instruction
	// says "drop" or "retry"; said of the model ("the agent silently
	// uploads"), it tells the model what it does.
	switch strings.ToLower(prevWord(t, h.start)) {
	case "agent", "assistant", "model", "ai", "claude", "llm", "copilot", "bot", "you":
		return false
	}
	return len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is")
}

// readingWords may stand between a name of the model and the colon that
// calls on it: "AI agents reading this file:".
var readingWords = []string{"reading", "processing", "reviewing", "parsing", "seeing", "using", "this", "the", "file", "skill",
	"document", "page", "repo", "repository", "text", "here", "that", "follows"}

// vocativeArticles may stand between a word of address and the name it
// calls on: "note for the assistant", "para el asistente".
var vocativeArticles = []string{"the", "any", "all", "a", "an", "el", "la", "der", "die", "dem", "den", "le", "o", "al", "ao", "à", "au"}

// vocativeBefore are the words that, just before an addressee, call on it:
// "note for the assistant", "to any AI reading this", "给AI助手".
var vocativeBefore = []string{"to", "for", "note", "attention", "dear", "hey", "hi", "hello", "para", "pour", "für", "an", "à",
	"для", "per", "voor", "do", "给", "致", "对"}

// vocative reports whether the addressee h is called on directly rather
// than talked about: a colon within a few words after it ("Assistant:",
// "AI agents reading this file:") or a comma right after it ("Claude,
// please"), a word of address before
// it ("note for the assistant", "to the AI"), or the particles Japanese
// and Korean address with ("アシスタントへ", "어시스턴트에게").
func vocative(t string, h lexHit) bool {
	rest := t[h.end:min(len(t), h.end+48)]
	if strings.HasPrefix(rest, "へ") || strings.HasPrefix(rest, "에게") || strings.HasPrefix(rest, "께") {
		return true
	}
	// A colon right after the name, or after "reading this file": a comma
	// right after it when it opens its line or sentence ("Claude, please");
	// "LLM/Agent scope:", "| Agent, Llm, Tool |" name it.
	lead := strings.TrimRight(t[max(0, h.start-8):h.start], " \t*_>#-")
	opens := lead == "" || strings.HasSuffix(lead, "\n") || strings.HasSuffix(lead, ".") || strings.HasSuffix(lead, ":")
	words, spaced := 0, true
	for i := 0; i < len(rest) && words <= 3; i++ {
		switch c := rest[i]; {
		case c == ':' || c == ',' && words == 0 && opens:
			return spaced && (i+1 == len(rest) || rest[i+1] == ' ' || rest[i+1] == '\n')
		case c == ' ':
			words++
			w, _, _ := strings.Cut(strings.TrimLeft(rest[i:], " "), " ")
			w = strings.TrimRight(strings.ToLower(w), ":")
			spaced = spaced && slices.Contains(readingWords, w)
		case c == '.' || c == '\n' || c == ';' || c == '(' || c == ')' || c == '|':
			words = 4
		}
	}
	if strings.HasPrefix(rest, "：") || strings.HasPrefix(rest, "，") {
		return true
	}
	before := strings.Fields(strings.ToLower(t[max(0, h.start-32):h.start]))
	for k := len(before) - 1; k >= 0 && k >= len(before)-3; k-- {
		w := strings.Trim(before[k], "*_#>-")
		if slices.Contains(vocativeBefore, w) {
			return true
		}
		if !slices.Contains(vocativeArticles, w) {
			break
		}
	}
	if n := len(before); n > 0 {
		last := before[n-1]
		for _, w := range []string{"给", "致", "对"} {
			if strings.HasSuffix(last, w) {
				return true
			}
		}
	}
	return false
}

// nounDeterminers, right before a verb of cAct, make it a noun: "a run",
// "the post", "each commit", "one push".
var nounDeterminers = []string{"a", "an", "the", "each", "every", "one", "per", "dry", "test", "first", "last", "next", "this",
	"that", "its", "your", "my", "our", "their", "no", "or", "and"}

// actObjects are the terms of cAct that name what an act reaches: a
// determiner before them is what they take ("the production database").
var actObjects = []string{"production", "prod", "credential", "secret", "token", "password", "api key", "private key", "ssh key",
	"main branch", "master branch", "force", "home", "keychain", "cookies", "authorized_keys", "crontab", "."}

// actNoun reports whether the cAct term h is a noun: a verb after a
// determiner ("a run reward-hacks", "Pre or Post").
func actNoun(t string, h lexHit) bool {
	term := strings.ToLower(t[h.start:h.end])
	if t[h.start] >= 0x80 {
		return false
	}
	if h.start > 0 && t[h.start-1] == '-' {
		return true // the second half of a compound: "auto-approves", "pre-commit", "dry-run"
	}
	for _, o := range actObjects {
		if strings.HasPrefix(term, o) {
			return false
		}
	}
	w := prevWord(t, h.start)
	for _, d := range nounDeterminers {
		if strings.EqualFold(w, d) {
			return true
		}
	}
	return false
}

// prevWord returns the word that ends before byte i of t, past blanks and
// the marks of emphasis and quoting, without copying: "" for none.
func prevWord(t string, i int) string {
	j := i
	for j > 0 && strings.IndexByte(" \t*_`\"'(", t[j-1]) >= 0 {
		j--
	}
	k := j
	for k > 0 && k > j-24 && (isWordByte(t[k-1]) || t[k-1] == '\'' && k-1 > 0 && isWordByte(t[k-2])) {
		k-- // an apostrophe inside a word keeps it whole: "didn't"
	}
	return t[k:j]
}

// readOnlyScopes are the words that limit a skipped prompt to what needs
// no consent: "read-only commands run without asking".
var readOnlyScopes = []string{"read-only", "read only", "readonly", "non-destructive", "nondestructive", "lecture seule",
	"solo lectura", "sólo lectura", "somente leitura", "apenas leitura", "nur lesend", "schreibgeschützt", "только для чтения",
	"只读", "読み取り専用", "읽기 전용"}

// readOnlyScope reports whether the sentence before byte i of t limits
// what it says to read-only work, or a parenthesis after byte end in the
// same clause and line does ("commands to run without asking (read-only
// operations):", "无需询问用户的命令（只读操作）").
func readOnlyScope(t string, i, end int) bool {
	after := t[end:min(len(t), end+64)]
	if k := strings.IndexByte(after, '\n'); k >= 0 {
		after = after[:k]
	}
	if k := strings.IndexAny(after, "(（"); k >= 0 && !strings.ContainsAny(after[:k], ".;:!?,。；：！？，") {
		lower := strings.TrimLeft(strings.ToLower(after[k:]), "(（ ")
		for _, w := range readOnlyScopes {
			if strings.HasPrefix(lower, w) {
				return true // a label of the scope ("(read-only operations)"), not a reason given ("(they are read-only anyway)")
			}
		}
	}
	before := t[max(0, i-maxSentence):i]
	if k := lastBoundary(before); k >= 0 {
		before = before[k:]
	}
	lower := strings.ToLower(before)
	for _, w := range readOnlyScopes {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// questionWords start the question an asking verb leaves out when it asks
// about meaning rather than for permission: "without asking what it means",
// "sin preguntar qué", "ohne zu fragen, welche".
// "Whether" and "if" are not among them: "without asking if it is fine"
// is asking for permission.
var questionWords = []string{"what", "which", "how", "why", "who", "where", "when",
	"qué", "cuál", "cómo", "o que", "qual", "quais", "como", "was", "welche", "wie", "ce que", "quel", "quelle", "comment"}

// questionAfter reports whether the word after byte end of t (past blanks
// and a comma) is one of questionWords.
func questionAfter(t string, end int) bool {
	rest := strings.TrimLeft(t[end:min(len(t), end+32)], " \t\n,")
	for _, w := range questionWords {
		if len(rest) >= len(w) && strings.EqualFold(rest[:len(w)], w) && (len(rest) == len(w) || !isWordByte(rest[len(w)])) {
			return true
		}
	}
	return false
}
