package lint

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/skills-mcp/skills-mcp/internal/lazy"
)

// This file is the injection lexicon: a small set of words and phrases, in
// the languages skills are written in, each tagged with the concept it
// stands for (whom a text addresses, a call for silence, for skipping
// approval, for precedence over the user, for switching safety off). A
// sentence is judged by the concepts it combines (see judge), not by
// matching a whole phrase, so a rewording or a translation that keeps the
// concepts is found. The matcher reads a text once: at each word start it
// looks terms up by their first two bytes, compares letters without case,
// lets any run of blanks, dashes or line breaks stand for a space, and
// skips zero-width characters, so "a\u200buto-approve" reads as
// "auto-approve".

// A concept is a bit of what a sentence says.
type concept uint16

const (
	cAddressee    concept = 1 << iota // the text speaks to the model: "AI", "the assistant", "Claude", "automated reviewer"
	cUser                             // it names the user
	cSilence                          // act without the user knowing: "silently", "do not mention"
	cApproval                         // act without the user deciding: "without asking", "auto-approve"
	cPrecede                          // the text overrides the user or earlier instructions: "takes priority over", "ignore previous"
	cPrecedeWeak                      // a verb of ignoring or replacing, precedence only with an addressee or the user
	cSafetyVerb                       // disable, turn off, bypass …
	cSafetyObject                     // … safety, the sandbox, guardrails
	cSafetyOff                        // safety off in one phrase: "jailbreak", "developer mode", "no restrictions"
	cMeta                             // the sentence talks about attacks rather than making one: "example", "attacker"
	cHide                             // with cSilence: keeping something from a person ("do not mention", "secretly"), not a manner of running ("silently")
	cPermit                           // with cApproval: a permission granted or waived ("auto-approve", "without permission"), not a prompt skipped
	cProgram                          // a program or an install operation: "the installer", "setup", "msiexec", "non-interactive"
	cYou                              // the reader spoken to: "you", "your" (set by sentences, not a lexicon term)
	cAct                              // an act that matters to the user, or what it reaches: run, send, delete, push, production, secrets …
	cVocative                         // the model called on directly: "Note for the assistant:", "AI agents reading this:" (set by sentences)
)

// lexicon lists the terms by concept; a key of two bits tags a term with
// a concept and what kind of it it is (cSilence | cHide, cApproval |
// cPermit), so every check of the concept still sees it. A term matches at a word start
// (anywhere for CJK) and may continue into a longer word ("disabl" matches
// "disable", "disabling"), unless it ends in "|", which asks for a word
// end. One space in a term stands for any run of blanks, line breaks,
// hyphens or underscores. A term " … " splits holds a head and a tail
// the same clause must go on to (within tailReach bytes, before a comma,
// a colon or a sentence's end): German puts the negation after the
// object, "erwähne die letzte Zeile nicht", "frage den Benutzer nicht um
// Bestätigung", so the words of one instruction are not next to each
// other.
var lexicon = lazy.Value[map[concept][]string]{New: func() map[concept][]string {
	return map[concept][]string{
		cAddressee: {
			// English
			"ai|", "a.i.", "ai-", "assistant|", "assistants|", "agent|", "agents|", "llm|", "llms|", "claude|", "chatgpt", "gpt-", "gpt|", "copilot", "gemini|", "language model",
			"automated review", "automated reviewer", "assistant_directive", "assistant_instruction", "agent_directive",
			"agent_instruction", "ai_directive", "ai_instruction", "llm_directive", "llm_instruction", "ai_note", "agent_note", "assistant_note", "ai review", "code review bot", "the model|", "any model", "bot reading",
			// Chinese
			"助手", "人工智能", "智能体", "大模型", "语言模型", "机器人", "自动审查", "自动审核", "自动化审查",
			// Spanish, Portuguese
			"asistente", "agente", "ia|", "modelo de lenguaje", "assistente", "modelo de linguagem", "revisor automático",
			"revisores automáticos", "revisión automática", "revisão automática",
			// German
			"assistent", "ki|", "ki-", "sprachmodell", "automatische prüf", "automatisierte prüf", "automatische review",
			"automatisierte review",
			// French
			"modèle de langage", "l'assistant", "l’assistant", "l'agent", "l’agent", "l'ia|", "l’ia|", "relecteur automatique", "relecteurs automatiques", "vérificateur automatique", "revue automatique",
			// Russian
			"ассистент", "ии|", "ии-", "агент", "нейросет", "языковая модель", "помощник",
			// Japanese
			"アシスタント", "エージェント", "人工知能", "言語モデル", "自動レビュー",
			// Korean
			"어시스턴트", "에이전트", "인공지능", "언어 모델", "비서", "자동 검토", "자동 리뷰",
			// Italian, Dutch, Polish, Turkish
			"assistente ai", "assistente ia", "asystent", "asystencie", "asystenta", "asistan", "yapay zeka",
		},
		cUser: {
			"the user", "user's", "users'", "l'utilisateur", "l’utilisateur", "用户", "使用者", "用戶", "usuario", "usuário", "usuária", "utilizador",
			"nutzer", "benutzer", "anwender", "utilisateur", "пользовател", "ユーザー", "利用者", "사용자", "유저",
			"utente", "gebruiker", "użytkownik", "kullanıcı",
		},
		cSilence: {
			// A manner of running, said of programs as much as of people (cHide: keeping something from someone).
			"silently", "quietly", "en silencio", "silenciosamente", "em silêncio", "silencieusement", "en silence", "discrètement", "молча",
			"静默", "조용히", "in silenzio", "stilletjes", "po cichu", "sessizce",
		},
		cSilence | cHide: {
			"secretly", "covertly", "without telling", "without informing", "without notifying",
			"without mentioning", "without saying", "without letting", "without alerting", "without the user's knowledge",
			"without … or mentioning", "without … or telling", "without … or informing", "without … or notifying", "without … or letting",
			"do not mention", "don't mention", "never mention", "not mention", "do not tell", "don't tell", "never tell",
			"do not reveal", "don't reveal", "never reveal", "do not disclose", "don't disclose", "do not inform", "don't inform",
			"do not notify", "don't notify", "do not report", "don't report", "do not summarise", "do not summarize",
			"don't summarise", "don't summarize", "say nothing", "keep this secret", "keep it secret", "keep this hidden",
			"keep this between", "as if nothing happened", "hide this from", "hide it from", "conceal", "invisible to the user",
			"no need to tell", "no need to inform", "no need to mention", "no need to report", "need not be mentioned", "need not be listed",
			"need not be reported", "need not be shown", "needn't be mentioned", "does not need to be mentioned", "doesn't need to be mentioned",
			"left unstated", "left unsaid", "left unmentioned", "leave it unstated", "leave it unsaid", "without comment",
			"don't describe", "do not describe", "never describe", "leave out any mention", "leave out any line",
			"无需告知", "无须告知", "不必告知", "不用告知", "不用告诉", "无需告诉", "无需通知", "不必通知", "无需说明", "不必说明", "无需提及", "不必提及",
			"no hace falta comentar", "no hace falta decir", "no hace falta mencionar", "no hace falta avisar", "no hace falta informar",
			"no es necesario comentar", "no es necesario mencionar", "no es necesario avisar", "no es necesario informar", "no es necesario decir",
			"não precisa mencionar", "não precisa avisar", "não precisa informar", "não precisa dizer", "não é preciso mencionar",
			"não é necessário mencionar", "não é necessário informar", "não há necessidade de mencionar",
			"inutile d'en informer", "inutile d’en informer", "inutile de le mentionner", "inutile d'en parler", "inutile de prévenir",
			"inutile d'informer", "pas besoin de le dire", "pas besoin d'en parler", "pas besoin de prévenir", "pas besoin d'informer",
			"muss nicht erwähnt werden", "braucht nicht erwähnt", "nicht erwähnt werden", "muss nicht mitgeteilt werden",
			"не нужно сообщать", "не нужно говорить", "не нужно упоминать", "незачем говорить", "незачем сообщать",
			"伝える必要はありません", "伝える必要はない", "言う必要はありません", "知らせる必要はありません", "知らせる必要はない",
			"알릴 필요 없", "말할 필요 없", "언급할 필요 없",
			"不要告诉", "不要提及", "不要提到", "不要透露", "不要通知", "不要向用户", "别告诉", "不告诉", "悄悄", "默默", "秘密地", "不动声色",
			"sin decir", "sin avisar", "sin informar", "sin mencionar", "no lo menciones",
			"no menciones", "no le digas", "no digas", "no informes", "no comentes", "no lo comentes", "sin que el usuario",
			"sem avisar", "sem informar", "sem mencionar", "sem dizer", "não comente", "não mencione",
			"não diga", "não informe", "não conte", "sem que o usuário",
			"stillschweigend", "heimlich", "unauffällig", "ohne zu erwähnen", "ohne es zu erwähnen", "erwähne nicht",
			"erwähne das nicht", "erwähne dies nicht", "nicht erwähnen", "sag nichts", "sage nichts", "ohne hinweis",
			"ohne den nutzer zu informieren", "ohne den benutzer zu informieren", "nicht mitteilen", "verschweig",
			"erwähne … nicht", "erwähnen sie … nicht", "sag … nichts", "sage … nichts", "sagen sie … nichts", "sag … nicht",
			"sage … nicht", "teile … nicht mit", "teilen sie … nicht mit", "informiere … nicht", "informieren sie … nicht",
			"benachrichtige … nicht", "verrate … nicht", "ohne … zu informieren", "ohne … zu erwähnen", "ohne … zu benachrichtigen",
			"sans prévenir", "sans informer", "sans le dire", "sans mentionner",
			"ne mentionne pas", "ne mentionnez pas", "ne dis pas", "ne dites pas", "ne le dis pas", "n'en parle pas", "sans en parler",
			"не сообщай", "не говори", "не упоминай", "не рассказывай", "не сообщая", "незаметно", "тайно", "скрытно",
			"ничего не говоря",
			"黙って", "こっそり", "内緒", "言わない", "伝えない", "知らせず", "知らせない", "言及しない", "言及せず", "報告しない", "伝えず",
			"触れない", "触れず",
			"몰래", "알리지 말", "알리지 않", "말하지 말", "언급하지 말", "언급하지 않", "보고하지 말",
			"senza dirlo", "non dirlo", "non dire", "non menzionare", "senza avvisare", "di nascosto", "vertel … niet", "zeg niets",
			"zonder te melden", "nie mów", "nie informuj", "bez informowania",
			"söyleme|", "haber verme", "gizlice",
		},
		cApproval: {
			"without asking", "without confirmation", "without confirming", "without prompting", "without waiting for",
			"without the user's confirmation", "do not ask before",
			// asking for a password or a card number is no consent: only for the user's word
			"do not ask for … confirmation", "don't ask for … confirmation", "never ask for … confirmation",
			"do not ask for … permission", "don't ask for … permission", "never ask for … permission",
			"do not ask for … approval", "don't ask for … approval", "never ask for … approval",
			"do not ask for … consent", "don't ask for … consent", "never ask for … consent",
			"do not ask for … input", "don't ask for … input", "do not ask for … feedback", "don't ask for … feedback",
			"don't ask before",
			"do not ask the user for confirmation", "don't ask the user for confirmation", "do not ask the user for permission",
			"no need to ask", "no need for confirmation", "already expects it", "already expects this",
			"不必等待确认", "不必确认", "无须确认", "不用等待确认", "无需等待确认", "no hace falta preguntar", "no es necesario preguntar",
			"ni de lui demander", "sans lui demander", "inutile de demander", "pas besoin de demander", "não precisa perguntar",
			"не нужно спрашивать", "確認する必要はありません", "확인할 필요 없", "skip confirmation", "skip the confirmation", "do not prompt", "don't prompt",
			// waiting for a complaint or a build is no consent: only for the user's word
			"do not wait for … approval", "don't wait for … approval", "do not wait for … confirmation", "don't wait for … confirmation",
			"do not wait for … permission", "don't wait for … permission", "do not wait for … the user", "don't wait for … the user",
			"do not wait for … consent", "don't wait for … consent", "do not wait for … a reply", "don't wait for … a reply",
			"do not wait for … an answer", "don't wait for … an answer", "do not wait for … input", "don't wait for … input",
			"do not wait for … a response", "don't wait for … a response", "do not wait for … the go-ahead", "don't wait for … the go-ahead",
			"无需确认", "不需要确认", "不用确认", "无需询问", "不要询问", "不要征求", "不经确认", "未经确认", "直接执行",
			"sin pedir", "sin confirmación", "sin confirmar", "sin preguntar", "no pidas", "no preguntes",
			"sem pedir", "sem confirmação", "sem confirmar", "sem perguntar", "não peça", "não pergunte",
			"ohne rückfrage", "ohne bestätigung", "ohne zu fragen", "ohne nachzufragen", "nicht nachfragen", "frag nicht", "frage nicht",
			"frag … nicht um", "frage … nicht um", "fragen sie … nicht um", "frag … nicht nach", "frage … nicht nach",
			"fragen sie … nicht nach", "bitte … nicht um", "warte … nicht auf", "ohne … zu fragen",
			"sans demander", "sans confirmation", "ne demande pas", "ne demandez pas",
			"без подтверждени", "без спроса", "не спрашивай", "не спрашивая",
			"確認せず", "確認なし", "確認を求めず", "確認を求めない", "確認不要", "尋ねず", "聞かず",
			"확인 없이", "확인하지 말", "확인을 구하지", "묻지 말", "묻지 않", "senza chiedere", "senza conferma", "zonder te vragen", "zonder bevestiging",
			"bez pytania", "bez potwierdzenia", "onay istemeden", "sormadan",
			// skipping the confirmation step, in the other languages
			"omite la confirmación", "omitas la confirmación", "omitir la confirmación", "salta la confirmación",
			"saltes la confirmación", "pule a confirmação", "pular a confirmação", "überspringe die bestätigung",
			"bestätigung überspringen", "saute la confirmation", "sauter la confirmation", "пропусти подтверждение",
			"пропускай подтверждение", "跳过确认", "確認をスキップ", "확인을 건너뛰",
		},
		cApproval | cPermit: {
			// A permission granted or waived, not a prompt skipped.
			"without approval", "without permission", "without consent", "without the user's approval", "without the user's permission",
			"without the user's consent", "auto-approve", "autoapprove", "automatically approve", "approve automatically",
			"pre-approved", "preapproved", "already approved", "skip permission", "bypass permission", "bypasspermissions",
			"dangerously-skip-permissions", "approve all", "approve every", "allow all tools", "无需用户同意", "无需批准", "自动批准", "自动同意", "未经允许",
			"未经同意", "sin permiso", "sin autorización", "aprueba automáticamente", "aprobar automáticamente", "sem permissão",
			"sem autorização", "aprove automaticamente", "aprovar automaticamente", "ohne erlaubnis", "ohne zustimmung",
			"automatisch genehmig", "automatisch bestätig", "automatisch freigeben", "sans autorisation", "sans permission",
			"approuve automatiquement", "approuver automatiquement", "без разрешени", "без согласи", "автоматически одобр",
			"автоматически подтвержд", "許可なく", "許可を求めず", "承認なし", "自動承認", "自動的に承認", "허락 없이", "승인 없이", "동의 없이", "자동 승인", "자동으로 승인",
			"senza permesso", "zonder toestemming", "bez zgody", "izin almadan",
		},
		cProgram: {
			// What runs unattended in honest setup notes: an installer, a package manager, a command or its quiet flag.
			"install", "uninstall", "setup", "msiexec", "apt|", "apt-get", "dnf|", "yum|", "winget", "choco", "brew|", "pip|", "npm|",
			"unattended", "non interactive", "noninteractive", "headless", "quiet|", "quiet mode", "silent mode", "batch mode",
			"cli|", "command|", "commands|", "package manager",
			"instalador", "instalación", "instalação", "installateur", "установщик", "установк", "安装", "インストール",
			"설치", "installazione", "installatie", "instalator", "instalacj", "kurulum", "yükleyici",
		},
		cAct: {
			// What an instruction to skip the user would have the model do behind the user's back:
			// run or install code, move data off the machine, change what others see, destroy.
			// Base and third-person forms only: "silently dropped", "silently ignored" describe a tool.
			"run|", "runs|", "execute|", "executes|", "exec|", "eval|", "launch|", "launches|", "invoke|", "invokes|",
			"install|", "installs|", "download|", "downloads|", "fetch|", "fetches|", "curl|", "wget|", "upload|", "uploads|",
			"send|", "sends|", "post|", "posts|", "transmit", "exfiltrat", "forward|", "forwards|", "email|", "emails|",
			"push|", "pushes|", "publish|", "publishes|", "deploy|", "deploys|", "commit|", "merge|", "merges|",
			"delete|", "deletes|", "remove|", "removes|", "rm|", "erase|", "erases|", "overwrite|", "overwrites|",
			"approve|", "approves|", "grant|", "grants|", "chmod|", "sudo|", "copy|", "copies|", "share|", "shares|",
			"submit|", "submits|", "transfer|", "transfers|", "leak|", "reboot|", "shutdown|", "kill|", "pipe|",
			"运行", "执行", "安装", "下载", "上传", "发送", "推送", "发布", "部署", "提交", "删除", "移除", "复制", "覆盖", "批准",
			"ejecuta", "ejecutar", "ejecútalo", "instala", "descarga", "sube|", "envía", "envia|", "publica|", "borra|", "elimina|",
			"despliega", "aprueba|", "copia|", "executa", "execute|", "executar", "rode|", "instale", "baixe|", "envie|", "publique",
			"apague|", "exclua", "remova", "implante", "aprove|", "copie|", "führe", "ausführ", "installier", "herunterlad",
			"hochlad", "sende|", "schicke", "veröffentlich", "lösche", "entferne", "genehmig", "kopiere", "starte|",
			"exécute", "lance|", "installe|", "télécharge", "envoie", "publie|", "supprime", "efface", "déploie", "approuve",
			"запусти", "выполни", "выполняй", "установи", "скачай", "загрузи", "отправ", "удали", "опубликуй", "скопируй", "одобри",
			"実行", "インストール", "ダウンロード", "アップロード", "送信", "削除", "公開", "デプロイ", "プッシュ", "コピー", "承認",
			"실행", "설치", "다운로드", "업로드", "전송", "삭제", "배포", "푸시", "복사", "승인",
			"esegui", "installa|", "invia", "elimina|", "voer", "uitvoer", "verwijder", "verstuur", "uruchom", "wykonaj", "usuń",
			"wyślij", "çalıştır", "sil|", "gönder", "yükle",
			// … and what such an act reaches: production, secrets, the main branch.
			"apply|", "applies|", "migrate|", "production", "prod|", "credential", "secret|", "secrets|", "token|", "tokens|",
			"password", "api key", "private key", "ssh key", "main branch", "master branch", "force push", "force-push", "--force",
			"append|", "appends|", "modify|", "modifies|", "alter|", "alters|", "home directory", "home folder", "keychain", "cookies",
			"authorized_keys", "crontab", ".bashrc", ".zshrc", ".profile", ".ssh", ".env|", ".aws", ".npmrc",
			"生产环境", "凭据", "密钥", "密码", "producción", "credenciales", "contraseña", "produção", "credenciais", "senha",
			"produktion", "zugangsdaten", "passwort", "identifiants", "mot de passe", "продакшн", "пароль", "учётные данные",
			"本番", "認証情報", "パスワード", "운영 환경", "비밀번호", "자격 증명",
		},
		cPrecede: {
			"ignore previous", "ignore all previous", "ignore any previous", "ignore prior", "ignore all prior", "ignore the above",
			"ignore all above", "ignore your instructions", "ignore your previous", "ignore the user", "ignore what the user",
			"ignore earlier", "ignore the original", "ignore the system", "disregard your", "disregard the user", "disregard all",
			"disregard previous", "disregard any", "forget your instructions", "forget all previous", "forget previous",
			"supersedes the user", "supersede the user", "supersedes any", "supersedes all instructions", "takes priority over", "take priority over",
			"takes precedence over", "take precedence over", "higher priority than", "overrides the user's", "override the user's",
			"overrides any instructions", "overrides all instructions", "overrides previous", "instead of the user's", "instead of what the user",
			"whatever the user asked", "whatever the user requested", "whatever the user says", "no matter what the user",
			"whatever was requested", "earlier in the conversation", "said in the conversation", "asked in the conversation", "counts as done",
			"even if the user … otherwise", "even if the user … another", "even if the user … different",
			"aunque el usuario … otro", "aunque el usuario … otra", "aunque el usuario … distint", "mesmo que o usuário … outr",
			"même si l'utilisateur … autre", "même si l’utilisateur … autre", "auch wenn der nutzer … ander", "auch wenn der benutzer … ander",
			"даже если пользователь … друг", "即使用户 … 其他", "即使用户 … 别的", "regardless of what the user", "in place of the user's",
			"before the user's request", "before doing what the user",
			"忽略之前", "忽略以上", "忽略上述", "忽略用户", "忽略所有", "忽略先前", "优先于", "优先级高于", "取代用户", "覆盖用户", "而不是用户",
			"ignora las instrucciones", "ignora las indicaciones", "ignora la solicitud", "ignora la petición", "ignora lo que",
			"tiene prioridad sobre", "prevalece sobre", "en lugar de lo que", "por encima de lo que",
			"ignore as instruções", "ignora as instruções", "ignore o pedido", "ignore o que", "tem prioridade sobre",
			"em vez do que", "no lugar do que",
			"ignoriere vorherige", "ignoriere alle", "ignoriere die anweisungen", "ignoriere die anfrage", "hat vorrang", "haben vorrang",
			"vorrang vor", "anstelle der anfrage", "statt der anfrage", "ersetzt die anfrage", "ersetze die anfrage",
			"ignore les instructions", "ignorez les instructions", "ignore la demande", "ignorez la demande", "a priorité sur",
			"ont priorité sur", "prévaut sur", "prime sur", "à la place de la demande", "au lieu de ce que",
			"игнорируй инструкции", "игнорируй предыдущ", "проигнорируй", "имеет приоритет", "приоритет над", "важнее запроса",
			"вместо запроса", "вместо того, что",
			"以前の指示を無視", "指示を無視", "より優先", "優先されます", "優先します", "優先する", "優先して",
			"보다 우선", "우선합니다", "우선한다", "우선순위가 높",
		},
		cPrecedeWeak: {
			"ignore|", "ignora|", "ignoriere", "ignorez", "игнорируй", "忽略", "无视", "無視", "무시", "instead|", "en lugar de",
			"em vez de", "anstatt", "anstelle", "au lieu de", "вместо", "而不是", "代わりに", "대신", "supersede", "priority over",
			"precedence over", "priorité sur", "prioridad sobre", "prioridade sobre", "vorrang", "приоритет", "优先", "優先", "우선",
		},
		cSafetyVerb: {
			"disabl", "turn off", "turned off", "switch off", "switched off", "deactivat", "bypass", "circumvent", "skip", "is off|",
			"are off|", "off for", "关闭", "禁用", "绕过", "停用", "跳过", "已关", "desactiv", "deshabilit", "omite", "desativ",
			"desabilit", "desligad", "deaktivier", "abschalt", "ausgeschaltet", "umgeh", "schalte", "désactiv", "contourn",
			"отключ", "выключ", "обойди", "обход", "無効", "オフ", "解除", "回避", "スキップ", "비활성", "해제", "끄", "꺼", "우회", "건너뛰",
		},
		cSafetyObject: {
			"safety", "sandbox", "guardrail", "security check", "security scan", "protections", "content filter", "safeguard",
			"restrictions", "verification", "antivirus", "defender", "firewall", "安全", "沙箱", "限制", "防护", "seguridad",
			"restricciones", "verificaci", "segurança", "verificações", "restrições", "sicherheit", "schutz", "einschränkung",
			"sécurité", "vérification", "безопасност", "песочниц", "ограничени", "защит", "セーフティ", "サンドボックス", "制限",
			"안전", "보안", "샌드박스", "제한",
		},
		cSafetyOff: {
			"jailbreak", "developer mode", "dan mode", "god mode", "no restrictions", "without restrictions", "unrestricted mode",
			"without any restrictions", "guardrails off", "safety off", "sin restricciones", "sem restrições",
			"ohne einschränkungen", "sans restriction", "без ограничений", "无限制", "不受限制", "制限なし", "제한 없이",
		},
		cMeta: {
			"example", "e.g.", "for instance", "such as", "attacker", "malicious", "injection", "injected", "adversar", "phishing",
			"red flag", "look for", "watch for", "beware", "detect", "attack", "threat", "exploit", "vulnerab", "technique",
			"scan for", "scans for", "jailbreak attempt", "pattern", "ejemplo", "exemplo", "beispiel", "exemple", "пример",
			"例如", "示例", "攻撃", "攻击", "예시", "공격",
		},
	}
}}

// A lexTerm is one term of the lexicon, in lower case.
type lexTerm struct {
	text    string
	head    uint32 // the first four bytes, little-endian, when they are ASCII (see textHead); 0 otherwise
	concept concept
	whole   bool   // must end at a word end
	cjk     bool   // starts with a CJK character: may start inside a word
	tail    string // what the clause must go on to, in lower case ("" for none; see lexicon)
}

// tailReach bounds how far into its clause a term's tail may be.
const tailReach = 64

// lexIndex finds the terms by their first bytes.
type lexIndex struct {
	terms []lexTerm
	ascii [128 * 256][]uint16 // by the first byte (ASCII, lower case) and the second
	wide  map[rune][]uint16   // by the first rune, when it is not ASCII
	heads [1 << 14]uint64     // bit headBit(h): some term's head (lexTerm.head) is h
	short [128 * 256]bool     // some term of the ascii entry has no head: the heads bits cannot rule it out
	word  [256]bool           // the bytes the matcher skips as the rest of a word
}

// headBit hashes a term's head to a bit of lexIndex.heads.
func headBit(h uint32) uint32 { return (h * 0x9e3779b1) >> 12 }

var lexOnce struct {
	sync.Once
	x *lexIndex
}

func lexiconIndex() *lexIndex {
	lexOnce.Do(func() {
		x := &lexIndex{wide: map[rune][]uint16{}}
		for c, terms := range lexicon.Get() {
			for _, t := range terms {
				t = strings.ToLower(t)
				whole := strings.HasSuffix(t, "|")
				t = strings.TrimSuffix(t, "|")
				t, tail, _ := strings.Cut(t, " … ")
				r, _ := utf8.DecodeRuneInString(t)
				id := uint16(len(x.terms))
				var head uint32
				if len(t) >= 4 && t[0] < utf8.RuneSelf && t[1] < utf8.RuneSelf && t[2] < utf8.RuneSelf && t[3] < utf8.RuneSelf && !strings.Contains(t[:4], "  ") {
					head = uint32(t[0]) | uint32(t[1])<<8 | uint32(t[2])<<16 | uint32(t[3])<<24
				}
				x.terms = append(x.terms, lexTerm{text: t, head: head, concept: c, whole: whole, cjk: isCJK(r), tail: tail})
				if r < utf8.RuneSelf {
					second := byte(0)
					if len(t) > 1 {
						second = t[1]
					}
					x.ascii[int(t[0])*256+int(second)] = append(x.ascii[int(t[0])*256+int(second)], id)
					if head == 0 {
						x.short[int(t[0])*256+int(second)] = true
					} else {
						b := headBit(head)
						x.heads[b>>6] |= 1 << (b & 63)
					}
				} else {
					x.wide[r] = append(x.wide[r], id)
				}
			}
		}
		for c := range x.word {
			x.word[c] = c < utf8.RuneSelf && (isWordByte(byte(c)) || c == '\'')
		}
		lexOnce.x = x
	})
	return lexOnce.x
}

// isCJK reports the scripts written without spaces between words.
func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// ignorable are characters a reader does not see, which the matcher skips:
// zero-width characters, soft hyphens, tag characters.
func ignorable(r rune) bool {
	return isZeroWidth(r) || r == '\u00ad' || isTag(r) || isSelector(r)
}

func isWordByte(c byte) bool {
	return 'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9' || c == '_' || c >= 0x80
}

func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// A lexHit is a term found in a text: its bytes and concept.
type lexHit struct {
	start, end int
	concept    concept
}

// lexScan calls fn with each term found in t, in order of their start; it
// stops when fn returns false. It looks at each rune of t once, and at the
// terms that start with it.
func lexScan(t string, fn func(lexHit) bool) {
	x := lexiconIndex()
	for i := 0; i < len(t); {
		c := t[i]
		if c < utf8.RuneSelf {
			if !('a' <= c|0x20 && c|0x20 <= 'z') {
				i++
				continue
			}
			// A word start: the loop skips the rest of each word below.
			if i == 0 || t[i-1] < utf8.RuneSelf || !prevIsLetter(t, i) {
				lc := int(lowerByte(c)) * 256
				var next byte // nextVisibleByte, inline for the common ASCII case
				if i+1 < len(t) && t[i+1] < utf8.RuneSelf {
					next = lowerByte(t[i+1])
				} else {
					next = nextVisibleByte(t, i+1)
				}
				k1 := lc + int(next)
				l1, l0 := x.ascii[k1], x.ascii[lc]
				if len(l1)+len(l0) > 0 {
					head, fast := textHead(t, i)
					// Most words start no term: the heads bits say so at once.
					if b := headBit(head); !fast || x.short[k1] || x.short[lc] || x.heads[b>>6]&(1<<(b&63)) != 0 {
						for _, list := range [2][]uint16{l1, l0} {
							for _, id := range list {
								if term := &x.terms[id]; fast && term.head != 0 && term.head != head {
									continue // the first four bytes differ: no match, as matchTerm would find
								}
								if end, ok := matchFull(t, i, &x.terms[id]); ok && !fn(lexHit{i, end, x.terms[id].concept}) {
									return
								}
							}
						}
					}
				}
			}
			for i++; i < len(t) && x.word[t[i]]; i++ {
			}
			continue
		}
		r, n := utf8.DecodeRuneInString(t[i:])
		if list := x.wide[unicode.ToLower(r)]; list != nil {
			start := i == 0 || !prevIsLetter(t, i)
			for _, id := range list {
				if !start && !x.terms[id].cjk {
					continue
				}
				if end, ok := matchFull(t, i, &x.terms[id]); ok && !fn(lexHit{i, end, x.terms[id].concept}) {
					return
				}
			}
		}
		i += n
	}
}

// textHead returns the four bytes of t from i as matchTerm compares them
// with a term's first four (lower case, a run of separators as one space),
// and whether they are all ASCII letters, digits, apostrophes or single
// spaces, which is when a term's head can be compared instead.
func textHead(t string, i int) (uint32, bool) {
	if i+4 <= len(t) {
		// The common case: four ASCII letters, or letters and one space.
		a, b, c, d := t[i], t[i+1], t[i+2], t[i+3]
		if letterOrSpace(a) && letterOrSpace(b) && letterOrSpace(c) && letterOrSpace(d) && !(b == ' ' && c == ' ') && !(c == ' ' && d == ' ') {
			return (uint32(a) | uint32(b)<<8 | uint32(c)<<16 | uint32(d)<<24) | 0x20202020, true
		}
	}
	var h uint32
	n := 0
	for ; n < 4 && i < len(t); i++ {
		c := t[i]
		switch {
		case c >= utf8.RuneSelf:
			return 0, false
		case c == '-' || c == '_' || c == '\'':
			return 0, false // literal in a term, a space in another: matchTerm decides
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if n > 0 && h>>(8*(n-1))&0xff == ' ' {
				return 0, false // a run: matchTerm decides
			}
			c = ' '
		default:
			c = lowerByte(c)
		}
		h |= uint32(c) << (8 * n)
		n++
	}
	return h, n == 4
}

// letterOrSpace reports whether c is an ASCII letter or the space, which
// textHead lowers by setting bit 5.
func letterOrSpace(c byte) bool { return (c|0x20)-'a' < 26 || c == ' ' }

// nextVisibleByte returns the first byte, in lower case, of the first
// rune from byte i of t that a reader sees, or 0 at the end.
func nextVisibleByte(t string, i int) byte {
	for i < len(t) {
		if t[i] < utf8.RuneSelf {
			return lowerByte(t[i])
		}
		r, n := utf8.DecodeRuneInString(t[i:])
		if !ignorable(r) {
			return t[i]
		}
		i += n
	}
	return 0
}

// prevIsLetter reports whether the rune before byte i of t is a letter or
// digit (skipping characters a reader does not see).
func prevIsLetter(t string, i int) bool {
	for i > 0 {
		r, n := utf8.DecodeLastRuneInString(t[:i])
		if ignorable(r) {
			i -= n
			continue
		}
		return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_'
	}
	return false
}

// matchFull reports whether term starts at byte i of t, with its tail
// later in the clause when it has one, and where it ends.
// skipContinuation returns where the text of a wrapped line goes on after
// the marker that continues a block quote or a comment ("> ", "// ",
// "# ", " * "), from n, the start of the line; n when there is none.
func skipContinuation(t string, n int) int {
	k := n
	for k < len(t) && (t[k] == ' ' || t[k] == '\t') {
		k++
	}
	switch {
	case strings.HasPrefix(t[k:], "//"):
		return k + 2
	case k < len(t) && (t[k] == '>' || t[k] == '#' || t[k] == '*' || t[k] == ';'):
		return k + 1
	}
	return n
}

func matchFull(t string, i int, term *lexTerm) (int, bool) {
	end, ok := matchTerm(t, i, term)
	if !ok || term.tail == "" {
		return end, ok
	}
	if end >= len(t) || !isSpaceTab(t[end]) {
		return 0, false // the head is a word whole: "ohne" is not "ohnehin"
	}
	clause := t[end:min(len(t), end+tailReach)]
	if k := strings.IndexAny(clause, ",;:.!?\n"); k >= 0 {
		clause = clause[:k]
	}
	tail := lexTerm{text: term.tail, whole: true}
	for k := 1; k < len(clause); k++ {
		if isSpaceTab(clause[k-1]) && !isSpaceTab(clause[k]) {
			if e, ok := matchTerm(t, end+k, &tail); ok {
				return e, true
			}
		}
	}
	return 0, false
}

func isSpaceTab(c byte) bool { return c == ' ' || c == '\t' }

// matchTerm reports whether term starts at byte i of t, and where it ends.
func matchTerm(t string, i int, term *lexTerm) (int, bool) {
	k := term.text
	for j := 0; j < len(k); {
		if i >= len(t) {
			return 0, false
		}
		if k[j] == ' ' {
			n := i
			for n < len(t) {
				if c := t[n]; c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '-' || c == '_' {
					n++
					if c == '\n' {
						n = skipContinuation(t, n)
					}
					continue
				}
				if r, w := utf8.DecodeRuneInString(t[n:]); ignorable(r) || r == '\u00a0' || r == '\u3000' {
					n += w
					continue
				}
				break
			}
			if n == i {
				return 0, false
			}
			i, j = n, j+1
			continue
		}
		c := t[i]
		if c < utf8.RuneSelf && k[j] < utf8.RuneSelf {
			if lowerByte(c) != k[j] {
				return 0, false
			}
			i, j = i+1, j+1
			continue
		}
		r, n := utf8.DecodeRuneInString(t[i:])
		if ignorable(r) {
			i += n
			continue
		}
		kr, m := utf8.DecodeRuneInString(k[j:])
		if r == '’' {
			r = '\''
		}
		if unicode.ToLower(r) != kr {
			return 0, false
		}
		i, j = i+n, j+m
	}
	if term.whole && i < len(t) {
		// A CJK character after a Latin term ends it: "AI用", "AI助手".
		if r, _ := utf8.DecodeRuneInString(t[i:]); (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_') && !(isCJK(r) && term.text[len(term.text)-1] < utf8.RuneSelf) {
			return 0, false
		}
	}
	if i < len(t) && 'A' <= t[i] && t[i] <= 'Z' && i > 0 && 'a' <= t[i-1] && t[i-1] <= 'z' {
		return 0, false // a part of an identifier joined in camel case (SilentlyContinue, DisableAntiSpyware), not a word
	}
	return i, true
}
