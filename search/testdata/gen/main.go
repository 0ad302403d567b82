// Command gen writes the search quality fixture, skills.json: a few hundred
// realistic skills in several libraries, expanded from the compact specs
// below into SKILL.md frontmatter fields and bodies. It is deterministic:
//
//	go run ./search/testdata/gen > search/testdata/skills.json
//
// Each spec line is "name | description | tags | body sentences", the body
// sentences separated by ";". A section line "@ category | path | mode"
// says where the following skills live and how their category is given:
// "folder" (the folder between namespace and skill), "meta"
// (metadata.category) or "fm" (a top-level category field). The expected
// answers are in queries.json, written by hand.
package main

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"strings"
)

// Skill is one fixture skill as the test turns it into a SKILL.md.
type Skill struct {
	Path        string            `json:"path"`
	Name        string            `json:"name"`
	Description string            `json:"description"`
	Category    string            `json:"category,omitempty"`
	Tags        []string          `json:"tags,omitempty"`
	Metadata    map[string]string `json:"metadata,omitempty"`
	Hidden      bool              `json:"hidden,omitempty"`
	Body        string            `json:"body"`
}

func main() {
	var out []Skill
	var cat, base, mode string
	for n, line := range strings.Split(specs, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if rest, ok := strings.CutPrefix(line, "@"); ok {
			f := split(rest, "|")
			if len(f) != 3 {
				fail(n, "section needs category | path | mode")
			}
			cat, base, mode = f[0], f[1], f[2]
			continue
		}
		f := split(line, "|")
		if len(f) != 4 {
			fail(n, "skill needs name | description | tags | body")
		}
		s := Skill{Path: base + "/" + f[0], Name: f[0], Description: f[1]}
		if strings.HasPrefix(s.Name, "!") {
			s.Name, s.Hidden = s.Name[1:], true
			s.Path = base + "/" + s.Name
		}
		if f[2] != "" {
			s.Tags = split(f[2], ",")
		}
		switch mode {
		case "meta":
			s.Metadata = map[string]string{"category": cat, "owner": owner(s.Name)}
		case "fm":
			s.Category = cat
		case "folder":
		default:
			fail(n, "unknown mode "+mode)
		}
		s.Body = body(s, cat, split(f[3], ";"))
		out = append(out, s)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func split(s, sep string) []string {
	var out []string
	for _, p := range strings.Split(s, sep) {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func fail(n int, msg string) {
	fmt.Fprintf(os.Stderr, "spec line %d: %s\n", n+1, msg)
	os.Exit(1)
}

func hash(s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32()
}

func owner(name string) string {
	owners := []string{"platform-team", "ops-guild", "docs-team", "finance-systems", "people-ops", "growth-team"}
	return owners[hash(name)%uint32(len(owners))]
}

func title(name string) string {
	words := strings.Split(name, "-")
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, " ")
}

// body writes a SKILL.md body: a title, what the skill does, when to use
// it, steps (the skill's own sentences among its category's usual ones)
// and notes shared by many skills, as real libraries have.
func body(s Skill, cat string, own []string) string {
	h := hash(s.Name)
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", title(s.Name))
	what, when, _ := strings.Cut(s.Description, " Use when ")
	fmt.Fprintf(&b, "%s\n\n", what)
	if when != "" {
		b.WriteString("## When to use\n\n")
		for _, w := range strings.Split(strings.TrimSuffix(when, "."), ", or ") {
			fmt.Fprintf(&b, "- %s\n", strings.TrimSpace(w))
		}
		b.WriteString("\n")
	}
	b.WriteString("## Steps\n\n")
	pool := categorySteps[cat]
	steps := []string{}
	if len(pool) > 0 {
		steps = append(steps, pool[h%uint32(len(pool))])
	}
	steps = append(steps, own...)
	if len(pool) > 1 {
		steps = append(steps, pool[(h/7+1)%uint32(len(pool))])
	}
	for i, st := range steps {
		fmt.Fprintf(&b, "%d. %s.\n", i+1, strings.TrimSuffix(st, "."))
	}
	b.WriteString("\n## Notes\n\n")
	for i := range 2 {
		fmt.Fprintf(&b, "- %s\n", notes[(h>>(4*i))%uint32(len(notes))])
	}
	return b.String()
}

var notes = []string{
	"Keep the output short; link to the source documents instead of copying them.",
	"If anything is unclear, ask the requester before acting rather than guessing.",
	"Record what you did in the ticket so the next person can follow it.",
	"Never paste secrets, passwords or personal data into chat or tickets.",
	"Check the team wiki for local conventions that override these steps.",
	"Prefer the company templates in the shared drive over ad-hoc formats.",
	"Write dates as YYYY-MM-DD and amounts with their currency.",
	"When a step fails twice, stop and escalate to the owning team.",
	"Review the result with a second person before sending it outside the company.",
	"Use plain language; avoid internal jargon in anything a customer reads.",
	"Time-box the work and report progress at the end of the day.",
	"Keep a copy of the final version in the project folder.",
}

// categorySteps are the usual steps of each category, mixed into the body
// of every skill in it: the shared vocabulary that makes siblings compete.
var categorySteps = map[string][]string{
	"billing":        {"Open the customer's account in the billing console", "Check the payment history and open invoices", "Confirm the amount and currency with the customer record", "Add an internal note to the customer's billing account"},
	"finance":        {"Export the ledger for the period from the accounting system", "Reconcile totals against the bank statement", "Ask the controller to approve entries above the threshold", "File the supporting documents in the finance folder"},
	"hr":             {"Check the employee's record in the HR system", "Follow the people policy in the employee handbook", "Keep personal data on a need-to-know basis", "Confirm dates with the employee's manager"},
	"legal":          {"Identify the parties, governing law and term", "Compare the text with the company's standard position", "Flag clauses that need a lawyer's review", "Save the final version to the contract repository"},
	"sales":          {"Look up the account and open opportunities in the CRM", "Note the decision makers and their priorities", "Log the activity in the CRM the same day", "Agree on a clear next step with a date"},
	"support":        {"Read the whole ticket history before replying", "Check the help center for an existing answer", "Tag the ticket with product area and priority", "Reply with empathy and a concrete next step"},
	"marketing":      {"Check the brand guidelines and tone of voice", "Define the audience and the one message that matters", "Add UTM parameters to every link", "Get sign-off from the marketing lead before publishing"},
	"devops":         {"Check the service's dashboards and recent deploys", "Run the change in staging before production", "Announce the change in the ops channel", "Keep the runbook updated with what you learned"},
	"engineering":    {"Pull the latest main branch and run the tests", "Keep changes small and focused on one concern", "Explain the why in the commit message", "Ask for review from a code owner"},
	"security":       {"Treat the information as confidential", "Record evidence with timestamps", "Follow the least-privilege principle", "Inform the security team in the private channel"},
	"data":           {"Check the source tables and their freshness", "Validate row counts before and after each step", "Document assumptions next to the query", "Share results with the data owner for review"},
	"documents":      {"Keep the original file untouched and work on a copy", "Check the output renders correctly before sending", "Use the company template where one exists", "Name files with the date and a short description"},
	"product":        {"Start from the user problem, not the solution", "Use evidence from interviews and analytics", "Write down open questions and owners", "Share the draft with engineering and design early"},
	"design":         {"Check the design system for an existing component", "Review on mobile and desktop sizes", "Annotate decisions for the developers", "Test with real content, not lorem ipsum"},
	"operations":     {"Check the current status on the incident dashboard", "Keep a timeline of events with UTC timestamps", "Communicate at a regular cadence", "Assign a single owner for each follow-up"},
	"it":             {"Verify the requester's identity before making changes", "Check the asset inventory for the device", "Follow the IT service desk procedure", "Close the request with what was done"},
	"procurement":    {"Check the approved vendor list", "Compare at least two quotes above the threshold", "Route the request for budget approval", "Store the signed documents with the purchase order"},
	"research":       {"Keep a list of sources with full references", "Separate findings from interpretation", "Note limitations and open questions", "Ask a colleague to review the argument"},
	"education":      {"State the learning objectives first", "Match activities to the audience's level", "Include a short check for understanding", "Collect feedback at the end"},
	"productivity":   {"Block focused time in the calendar", "Write the outcome you want before starting", "Batch similar small tasks together", "Review what worked at the end of the week"},
	"ecommerce":      {"Check the order in the shop admin", "Look at stock levels in the warehouse system", "Update the customer by email with tracking details", "Keep product data consistent across channels"},
	"communications": {"Lead with the key message in the first sentence", "Adapt the tone to the audience", "Have legal review anything external about incidents", "Send from the official account or distribution list"},
	"analytics":      {"Check that tracking fires in the debug view", "Agree on event and property naming", "Compare with last period before concluding", "Document the metric definition"},
	"mobile":         {"Test on the oldest supported OS version", "Check crash-free sessions in the release dashboard", "Coordinate the release with the store review times", "Keep release notes user-facing"},
	"ai":             {"Define the task and a small evaluation set first", "Log prompts, model versions and settings", "Compare against a simple baseline", "Review outputs for harmful or wrong content"},
}

const specs = `
@ billing | acme/billing | folder
invoices | Create, correct and resend customer invoices in the Acme billing console. Use when a customer asks for an invoice copy, an invoice shows a wrong address or line item, or a new invoice must be issued. | invoice | Find the invoice by its number or the customer's email; Void a wrong invoice and issue a corrected one instead of editing a sent invoice; Send the PDF from the console so the customer gets the official copy
refunds | Issue full refunds to Acme billing customers, check eligibility against the refund policy and send the confirmation email. Use when a customer asks for their money back, a charge was made by mistake, or a payment must be reversed. | refund, money back | Card payments are refundable within 180 days of the charge; Refund to the original payment method only; Send the refund confirmation template with the expected arrival date
partial-refunds | Calculate and issue pro-rata or partial refunds for subscriptions and multi-line invoices. Use when a customer cancels an annual plan mid-term, downgrades, or should get back only part of a charge. | prorate, refund | Compute refund = price x unused days / days in term; Round down to the cent and never refund more than was paid; Refund single invoice lines separately
chargebacks | Respond to card disputes and chargebacks with evidence before the deadline. Use when the payment processor reports a dispute, a customer disputes a charge with their bank, or a chargeback fee appears. | dispute, chargeback | Collect the signed order, delivery proof and customer emails as evidence; Submit the evidence in the processor dashboard before the response deadline; Do not refund a charge that is already disputed
dunning | Run the failed-payment dunning sequence: retry cards, email customers and suspend accounts that stay unpaid. Use when a renewal payment fails, a card expires, or an account is overdue. | failed payment, overdue | Retry the card on day 1, 3 and 7; Send the payment-failed email with a link to update the card; Suspend the account after 21 days unpaid
subscription-changes | Upgrade, downgrade or pause customer subscriptions and explain the effect on the next bill. Use when a customer changes plan, adds seats, or asks to pause billing. | plan change, seats | Preview the proration before applying the change; Apply seat changes at the start of the next cycle unless the customer asks otherwise; Confirm the new plan and price by email
usage-billing | Check metered usage records and explain usage-based charges on an invoice. Use when a customer questions an overage, usage numbers look wrong, or a meter must be corrected. | metered, overage | Compare the usage export with the invoice line; Correct a meter only with an approved adjustment; Explain the pricing tiers in the reply
credit-notes | Issue credit notes against invoices and apply account credit. Use when an invoice must be reduced after it was sent, a goodwill credit was approved, or credit must be applied to the next bill. | credit | Reference the original invoice number on the credit note; Goodwill credit above 500 EUR needs manager approval; Apply the credit to the next open invoice
payment-reconciliation | Match incoming bank payments to open invoices and chase unmatched transfers. Use when a bank transfer arrives without a reference, payments do not match invoices, or month-end matching is due. | bank transfer, matching | Match by amount, date and reference in that order; Park unmatched payments in the suspense account; Email the payer for remittance details
pricing-quotes | Prepare price quotes with discounts within the approval matrix. Use when a prospect asks for a quote, a discount above the standard is requested, or a quote must be renewed. | quote, discount | Use the price book for list prices; Discounts above 20 percent need sales director approval; Quotes expire after 30 days
tax-invoices-eu | Produce VAT-compliant invoices for EU customers, including reverse charge and VAT ID checks. Use when invoicing a business customer in another EU country, a VAT number must be validated, or an invoice is missing VAT details. | vat, reverse charge, eu | Validate the VAT ID in the VIES service; Print the reverse charge mention for intra-EU B2B sales; Show net, VAT rate and gross per line
# finance
@ finance | acme/finance | folder
expense-reports | Submit, review and approve employee expense reports with receipts in the finance portal. Use when an employee needs reimbursement, receipts must be checked, or an expense claim is rejected. | expenses, reimbursement, receipts | Attach a receipt for every item above 25 EUR; Check the expense policy limits for meals and travel; Approve or return the report with a reason
month-end-close | Run the month-end close checklist: accruals, reconciliations, journal entries and the close report. Use when closing the books for a month, the controller asks for close status, or accruals are due. | close, accruals, journal entries | Book accruals for received but uninvoiced goods; Reconcile every balance sheet account; Lock the period after the controller signs off
budget-variance | Explain budget versus actual variances per department and cost center. Use when actuals differ from budget, a department overspends, or the monthly variance report is due. | budget, actuals, cost center | Compare actuals to budget by cost center; Explain every variance above 10 percent; Propose corrective actions with owners
cash-forecast | Build a 13-week cash flow forecast from receivables, payables and payroll. Use when treasury needs a liquidity view, cash looks tight, or the board asks for runway. | cash flow, runway, treasury | Start from the opening bank balance; Add expected customer receipts by due date; Subtract payroll, rent and supplier payments
accounts-payable | Process supplier invoices: three-way match, approval routing and payment runs. Use when a supplier invoice arrives, a payment run is scheduled, or a supplier asks why they were not paid. | supplier invoice, payment run | Match invoice, purchase order and goods receipt; Route invoices above budget to the cost center owner; Schedule payment on the due date, not before
vat-return-fr | Préparer la déclaration de TVA mensuelle (CA3) : TVA collectée, TVA déductible et crédit de TVA. Use when the French VAT return is due, a TVA credit must be claimed, or the CA3 form has to be filed. | tva, ca3, france | Extraire la TVA collectée du grand livre; Vérifier la TVA déductible sur les factures fournisseurs; Déposer la déclaration sur impots.gouv avant l'échéance
fx-revaluation | Revalue foreign-currency balances at month-end exchange rates and book gains and losses. Use when closing a month with foreign currency accounts, exchange rates moved, or unrealized FX must be booked. | currency, exchange rate | Use the central bank closing rate; Book unrealized gains and losses per currency; Reverse the entry on the first day of the next period
audit-prep | Prepare the evidence pack for the annual financial audit. Use when auditors send their request list, year-end audit fieldwork starts, or sample documents must be pulled. | audit, auditors, evidence | Track every auditor request in the PBC list; Pull samples with invoices and proof of payment; Answer questions within two working days
!payroll-run | Run the monthly payroll: import hours, check changes and submit payments. Use when payroll is due this month, salary changes must be applied, or a payroll correction is needed. | payroll, salaries | Import approved timesheets; Check starters, leavers and salary changes; Submit the payment file before the bank cut-off
purchase-orders | Raise and approve purchase orders before committing spend. Use when buying goods or services above the PO threshold, a supplier requires a PO number, or a PO must be amended. | po, purchasing | Raise the PO before ordering; Attach the quote to the PO; Close the PO when the final invoice is paid
# hr
@ hr | acme/people | folder
onboarding-checklist | Plan a new hire's first week: accounts, equipment, buddy and first tasks. Use when someone new joins the team, a start date is confirmed, or a manager asks what to prepare for a new employee. | new hire, first week | Order the laptop two weeks before the start date; Assign an onboarding buddy; Plan a small first task that ships in week one
offboarding | Offboard a leaving employee: access removal, equipment return and knowledge handover. Use when an employee resigns or leaves, a contractor's contract ends, or a laptop must be returned. | leaver, access removal | Revoke all accounts on the last working day; Collect the laptop and badge; Schedule handover sessions for open work
job-description | Write an inclusive job description with responsibilities, requirements and salary range. Use when opening a new role, rewriting an old job ad, or a hiring manager needs a posting. | job ad, hiring | Separate must-have from nice-to-have requirements; Include the salary range; Avoid gendered and exclusionary language
interview-scorecard | Build structured interview scorecards with competencies and rating anchors. Use when preparing interviews for a role, interviewers need consistent questions, or hiring decisions must be calibrated. | interview, hiring, competencies | Define four to six competencies for the role; Write behavioural questions for each; Describe what a 1, 3 and 5 rating look like
resume-screening | Screen résumés and CVs against the role's must-have criteria, fairly and consistently. Use when many applications arrive for a role, a shortlist is needed, or candidates must be compared. | cv, applicants, shortlist | Score each candidate against the must-have criteria only; Hide names and photos during first screening; Write one line of reasoning per decision
performance-review | Write balanced performance reviews with examples, ratings and growth goals. Use when the review cycle opens, a manager drafts feedback, or an employee asks for a mid-year check-in. | appraisal, feedback | Collect examples from the whole period, not the last month; Link every rating to concrete evidence; Agree on two growth goals
leave-requests | Handle vacation, sick leave and parental leave requests according to policy. Use when an employee requests time off, a leave balance is disputed, or long-term leave must be planned. | vacation, pto, parental leave | Check the remaining leave balance; Approve in the HR system, not by email; Plan cover for absences longer than two weeks
compensation-bands | Place employees and offers within salary bands and explain pay decisions. Use when making an offer, reviewing a raise, or checking pay equity across a team. | salary, pay equity | Find the band for the role and level; Keep offers between the band minimum and midpoint; Flag outliers for the pay equity review
reference-checks | Run reference checks for finalist candidates with consent. Use when a candidate reaches the final stage, references must be called, or a reference raises concerns. | references, candidates | Get the candidate's written consent first; Ask the same structured questions to every referee; Record answers factually
employee-handbook-qa | Answer employee questions from the employee handbook and cite the policy section. Use when someone asks about a company policy, benefits, or working hours. | policy, benefits | Search the handbook for the relevant section; Quote the section number in the answer; Refer unclear cases to HR
# legal
@ legal | acme/legal | folder
nda-review | Review non-disclosure agreements against the company's standard NDA positions. Use when a partner or vendor sends an NDA, a mutual NDA must be checked, or confidentiality terms are unusual. | nda, confidentiality | Check whether the NDA is mutual or one-way; Limit the term to three years; Reject non-solicitation clauses hidden in NDAs
contract-redlines | Redline commercial contracts and propose fallback positions on liability and indemnity. Use when a customer sends back a marked-up contract, negotiating MSA terms, or a liability cap is challenged. | msa, liability, indemnity | Use tracked changes with a comment for each edit; Cap liability at twelve months of fees; Escalate unlimited indemnities to legal
gdpr-dsar | Answer GDPR data subject access requests within the legal deadline. Use when a person asks for a copy of their personal data, requests deletion, or invokes their privacy rights. | gdpr, privacy, personal data | Verify the requester's identity; Search every system that holds personal data; Reply within one month of the request
privacy-policy | Draft or update the public privacy policy for a product or website. Use when launching a product that collects personal data, adding a new data processor, or cookies change. | privacy notice, cookies | List the data collected and the legal basis for each; Name the processors and transfer safeguards; Update the effective date
trademark-search | Run a preliminary trademark search before naming a product. Use when choosing a product or company name, checking if a name is free, or a conflict is suspected. | brand name, trademark | Search the EUIPO and USPTO databases; Check similar names in the same classes; Ask counsel before filing
terms-of-service | Write and update terms of service for a SaaS product. Use when launching a new product, changing pricing terms, or customers question the terms. | tos, saas terms | Keep acceptable use rules in a separate section; Give notice before material changes; Align liability with the MSA
dpa-review | Review data processing agreements with vendors and customers under GDPR article 28. Use when a vendor processes personal data for us, a customer asks us to sign their DPA, or subprocessors change. | dpa, subprocessors, gdpr | Check the article 28 mandatory clauses; Review the subprocessor list; Confirm standard contractual clauses for transfers
legal-hold | Issue and track litigation holds so relevant documents are preserved. Use when litigation is expected, a regulator opens an inquiry, or documents must not be deleted. | litigation, preservation | Send the hold notice to custodians; Suspend automatic deletion for their mailboxes; Track acknowledgements
license-compliance | Check open-source licenses of dependencies for compliance before release. Use when adding a new dependency, preparing a release, or a copyleft license is found. | open source, gpl, licenses | Generate the list of dependency licenses; Flag GPL and AGPL in distributed code; Keep the notices file up to date
# sales
@ sales | acme/sales | folder
lead-qualification | Qualify inbound leads with BANT and route them to the right rep. Use when a new lead comes in, a demo request arrives, or marketing asks which leads are sales-ready. | bant, inbound, leads | Check budget, authority, need and timeline; Route by region and company size; Disqualify politely with a resource link
discovery-call-prep | Prepare for a discovery call: account research, hypotheses and questions. Use when a first sales call is booked, meeting a new prospect, or the account executive needs a briefing. | discovery, prospect research | Read the prospect's website and recent news; Write three hypotheses about their pain; Prepare open questions
proposal-writer | Write a sales proposal with scope, pricing and next steps. Use when a prospect asks for a proposal, an RFP needs a commercial section, or a deal moves to the proposal stage. | proposal, scope | Restate the customer's goals in their words; Show pricing options; End with a clear call to action
crm-hygiene | Clean up CRM data: duplicates, stale opportunities and missing fields. Use when the pipeline report looks wrong, duplicates pile up, or quarter-end cleanup is due. | salesforce, duplicates | Merge duplicate accounts; Close opportunities with no activity for 90 days; Fill missing close dates and amounts
pipeline-review | Run the weekly pipeline review and forecast commit. Use when preparing the sales forecast, the manager reviews deals, or deals slip from the quarter. | forecast, deals | Review deals by stage and close date; Challenge deals without a next step; Update commit and best case numbers
renewal-outreach | Plan renewal conversations 90 days before contract end. Use when a customer contract is up for renewal, usage dropped before a renewal, or a price increase must be communicated. | renewal, retention | Check product usage and support history; Book a renewal call 90 days out; Prepare a value summary
competitor-battlecard | Write battlecards comparing us with a named competitor. Use when sales loses deals to a competitor, a new competitor appears, or reps need objection handling. | competition, objections | List where we win and where we lose; Give proof points for each claim; Add trap-setting questions
cold-email | Write short personalised cold outreach emails and follow-ups. Use when starting outbound to a new account, a sequence needs new copy, or reply rates are low. | outbound, prospecting | Keep it under 100 words; Personalise the first line; Ask one easy question
account-plan | Build an account plan for a strategic customer with stakeholders and growth goals. Use when a key account needs a plan, expanding into a customer's other teams, or the quarterly business review is coming. | key account, qbr | Map stakeholders and their influence; Set expansion targets; Plan quarterly business reviews
# support
@ support | acme/support | folder
ticket-triage | Triage incoming support tickets by severity, product area and customer tier. Use when the support queue grows, new tickets need routing, or priorities are unclear. | queue, priority, routing | Set severity from customer impact; Route by product area; Escalate enterprise tier tickets first
escalation | Escalate a support case to engineering with a complete bug report. Use when a ticket needs engineering, a bug blocks a customer, or the support SLA is at risk. | engineering escalation | Reproduce the issue and write exact steps; Attach logs and account IDs; Set the customer's impact and deadline
knowledge-base-article | Write help center articles that answer one question with steps and screenshots. Use when the same question keeps coming in, a feature launches, or an article is outdated. | help center, faq | One question per article; Number the steps; Add screenshots of the current UI
macro-writer | Write reusable reply macros for common support answers. Use when agents type the same reply often, a policy changes, or response times must improve. | canned responses, templates | Keep placeholders for name and details; Write in the brand tone; Review macros every quarter
csat-analysis | Analyse CSAT survey results and low ratings to find root causes. Use when satisfaction scores drop, the monthly CSAT report is due, or bad ratings need follow-up. | satisfaction, survey | Group low ratings by reason; Read comments for themes; Follow up with unhappy customers
sla-breach | Handle support SLA breaches and prevent repeats. Use when a first response or resolution SLA is breached, an enterprise customer complains about response times, or breach reports are due. | response time, sla | Identify why the ticket waited; Apologise and give an update; Fix the routing rule that failed
bug-report-from-ticket | Turn a customer ticket into a reproducible bug report for the issue tracker. Use when a customer reports an error, something worked before and broke, or engineering asks for steps to reproduce. | issue tracker, reproduce | Write steps to reproduce, expected and actual result; Note browser, OS and account; Link the ticket in the issue
churn-risk | Spot customers at risk of churning from support signals and alert the account team. Use when a customer is frustrated, usage drops after a bad experience, or cancellation is mentioned. | churn, at-risk | Look for repeated complaints and cancellation words; Alert the account manager; Offer a call with a specialist
# marketing
@ marketing | community | meta
seo-audit | Audit a website for technical SEO, on-page issues and search rankings. Use when organic traffic drops, launching a new site, or pages do not rank on Google. | seo, google, organic | Crawl the site for broken links and redirects; Check titles, meta descriptions and headings; Review Core Web Vitals
blog-post-outline | Outline a blog post around one keyword and one reader question. Use when planning content, a writer needs a brief, or a topic must be turned into an article. | content, article | Pick the target keyword; Write the headline and section headings; List sources and examples
social-media-calendar | Plan a month of social media posts across LinkedIn, X and Instagram. Use when planning social content, a campaign needs posts, or the calendar is empty. | linkedin, posts, schedule | Mix educational, product and community posts; Schedule posts at the audience's active hours; Reuse long content as short posts
newsletter | Write the monthly customer newsletter with product news and tips. Use when the newsletter is due, there are product updates to announce, or engagement needs a boost. | email newsletter, subscribers | Lead with the most useful item; Keep three to five sections; Add one clear call to action
landing-page-copy | Write landing page copy with a headline, benefits and a call to action. Use when launching a campaign page, conversion is low, or a product page needs new copy. | conversion, headline | Write the headline for the visitor's problem; List benefits before features; Test two call-to-action variants
ab-test-setup | Design an A/B test with a hypothesis, sample size and success metric. Use when testing a change on a page or email, deciding between two variants, or an experiment must be planned. | experiment, split test, variants | Write the hypothesis and primary metric; Compute the sample size before starting; Run the test for full weeks
brand-voice | Apply the brand voice and tone guidelines to any copy. Use when copy sounds off-brand, onboarding new writers, or reviewing external text. | tone, style | Check words to use and words to avoid; Keep sentences short and active; Match tone to the channel
press-release | Write a press release for a launch, funding round or partnership. Use when announcing news to media, a journalist asks for a statement, or a launch date is set. | pr, media, announcement | Put the news in the first sentence; Add a quote from an executive; End with the company boilerplate
campaign-report | Report on a marketing campaign's reach, conversions and ROI. Use when a campaign ends, leadership asks for results, or budgets must be reallocated. | roi, results | Compare results with the campaign goals; Break down conversions by channel; Recommend what to repeat
webinar-promo | Promote a webinar with emails, posts and reminders to maximise attendance. Use when a webinar is scheduled, registrations are low, or reminder emails are needed. | webinar, registrations | Send invites three weeks before; Remind one day and one hour before; Send the recording to all registrants
# devops
@ devops | acme/platform | folder
ci-pipeline-debug | Debug failing CI pipelines in GitHub Actions and GitLab CI. Use when a build or CI job fails, a pipeline is red on main, or CI/CD suddenly got slow. | github actions, gitlab ci, build | Read the first error in the job log, not the last; Re-run with debug logging enabled; Compare with the last green run
docker-image-hardening | Harden Docker images: minimal base, non-root user and vulnerability scanning. Use when writing a Dockerfile, a container scan reports CVEs, or images are too large. | dockerfile, containers | Use a distroless or slim base image; Run as a non-root user; Scan images in CI with a vulnerability scanner
kubernetes-rollback | Roll back a bad Kubernetes deployment and verify the service recovers. Use when a release breaks production, pods crash-loop after a deploy, or a rollout must be undone. | k8s, kubectl, rollout | Run kubectl rollout undo for the deployment; Watch pods until all are ready; Confirm error rates return to normal
terraform-plan-review | Review Terraform plans for destructive changes before apply. Use when a pull request changes infrastructure code, a plan shows resources to destroy, or state drift is suspected. | terraform, infrastructure as code, iac | Read every destroy and replace in the plan; Check for drift with a refresh-only plan; Apply only from the CI pipeline
helm-chart-upgrade | Upgrade Helm charts safely with diffs and rollback plans. Use when a chart version bump is needed, values change, or a helm upgrade failed. | helm, charts | Run helm diff before upgrading; Pin chart versions; Keep the previous release for rollback
secrets-rotation | Rotate leaked or expiring secrets, API keys and database passwords without downtime. Use when a key was committed to git, credentials expire, or a security review asks for rotation. | api keys, credentials, vault | Create the new secret alongside the old one; Roll out consumers before revoking; Revoke the leaked key and audit its use
log-search | Search production logs to investigate errors and trace requests. Use when investigating an error report, tracing a request across services, or a log query is needed. | logs, tracing, kibana | Filter by request ID and time window; Group errors by message; Link the saved query in the ticket
on-call-handover | Hand over the on-call shift with open incidents, alerts and risks. Use when an on-call rotation changes, ending a shift, or starting a pager week. | pager, rotation | List open incidents and their owners; Note noisy alerts; Mention risky changes planned for the week
cloud-cost-optimization | Find and cut cloud waste in AWS, GCP and Azure bills. Use when the cloud bill grows, idle resources pile up, or finance asks to reduce infrastructure spend. | aws, finops, spend | Find idle instances and unattached volumes; Buy savings plans for steady workloads; Tag resources by team
dns-change | Change DNS records safely with low TTLs and verification. Use when moving a domain, adding a subdomain, or email records like SPF and DKIM must change. | dns, domain, spf | Lower the TTL a day before the change; Change one record at a time; Verify with dig from two networks
ssl-certificate-renewal | Renew TLS/SSL certificates before they expire and deploy them. Use when a certificate expiry alert fires, browsers show certificate errors, or moving to Let's Encrypt. | tls, https, certificates | List certificates and their expiry dates; Renew with the ACME client; Reload the web servers and check the chain
backup-restore-drill | Run a backup restore drill and measure recovery time. Use when the quarterly restore test is due, backups were never tested, or auditors ask for recovery evidence. | backup, disaster recovery, rto | Restore the latest backup to an isolated environment; Measure the time to restore; Record gaps and fix them
!deploy-production | Deploy a tagged service release to the production cluster. Use when a person explicitly asks to deploy to production. | deploy, release | Check the release tag and green pipeline; Deploy with the release script; Watch error rates for 30 minutes
# engineering
@ engineering | acme/engineering | folder
code-review | Review pull requests for correctness, readability, tests and security. Use when asked to review a pull request, a diff needs a second pair of eyes, or review comments must be written. | pull request, review comments | Read the description and linked issue first; Check tests cover the change; Separate blocking comments from nits
git-workflow | Create branches, write commit messages, rebase and open pull requests following Acme's trunk-based Git conventions. Use when starting work on a ticket, committing changes, or syncing a branch with main. | git, branches, rebase | Branch from origin/main with the ticket key in the name; Rebase instead of merging main into the branch; Squash fixup commits before review
pull-request-description | Write pull request descriptions with context, changes and testing notes. Use when opening a pull request, a reviewer asks for context, or a PR template must be filled. | pr, description | Explain why the change is needed; List what changed; Describe how it was tested
refactoring-plan | Plan a refactoring in small safe steps with tests around the old behaviour. Use when code is hard to change, technical debt blocks features, or a module must be split. | technical debt, legacy code | Add characterisation tests first; Change one thing per commit; Keep the build green at every step
unit-test-writer | Write unit tests with clear arrange-act-assert structure and edge cases. Use when code lacks tests, fixing a bug that needs a regression test, or coverage is low. | testing, coverage | Test behaviour, not implementation; Cover edge cases and errors; Name tests after the behaviour
flaky-test-hunt | Find and fix flaky tests that pass and fail at random. Use when CI fails intermittently, tests depend on timing or order, or a test must be quarantined. | intermittent, nondeterministic | Re-run the test many times to reproduce; Look for shared state, time and network; Quarantine with an issue while fixing
dependency-upgrade | Upgrade third-party dependencies and handle breaking changes. Use when Dependabot or Renovate opens upgrade PRs, a library is end of life, or a vulnerable version must be replaced. | dependabot, renovate, packages | Read the changelog for breaking changes; Upgrade one major version at a time; Run the full test suite
api-design-review | Review REST and gRPC API designs for consistency, versioning and errors. Use when designing a new endpoint, an API change may break clients, or the API style guide must be applied. | rest, grpc, endpoints | Use nouns for resources and standard methods; Version breaking changes; Return structured errors
database-migration | Write and run database schema migrations without downtime. Use when adding or renaming columns, changing indexes on large tables, or a migration failed in production. | schema, sql, postgres | Make migrations backwards compatible; Add indexes concurrently; Separate schema changes from data backfills
performance-profiling | Profile slow code paths and endpoints with CPU and memory profiles. Use when an endpoint is slow, latency rises, or memory keeps growing. | latency, profiler, memory leak | Reproduce with a benchmark; Capture a CPU profile under load; Fix the hottest path first
feature-flags | Roll out features behind flags and clean them up afterwards. Use when releasing a risky feature, doing a gradual rollout, or old flags clutter the code. | rollout, toggles | Default new flags to off; Roll out by percentage; Remove the flag after full rollout
changelog-writer | Maintain a CHANGELOG.md in the Keep a Changelog format. Use when a change is merged, asked to update the changelog, or preparing a release. | changelog, keep a changelog | Add entries under Unreleased; Group entries as Added, Changed, Fixed; Cut a version section at release time
release-notes | Draft customer-facing release notes from merged pull requests and the changelog. Use when cutting a release, summarising what changed since the last tag, or announcing a new version to customers. | release, announcement | Group changes by what users can do now; Leave out internal refactors; Link to documentation
semantic-versioning | Choose the next version number with semantic versioning rules. Use when tagging a release, unsure whether a change is breaking, or bumping major, minor or patch. | semver, version bump | Breaking changes bump major; New features bump minor; Fixes bump patch
# security
@ security | acme/security | folder
threat-model | Build a threat model for a new feature or system with STRIDE. Use when designing a system that handles sensitive data, before a security review, or after architecture changes. | stride, architecture | Draw the data flow diagram; List threats per element with STRIDE; Rank threats and pick mitigations
vulnerability-triage | Triage CVEs and scanner findings by exploitability and exposure. Use when a vulnerability scanner reports findings, a new CVE affects our stack, or patch priorities must be set. | cve, scanner, patching | Check if the vulnerable code path is reachable; Score with CVSS and exposure; Set a patch deadline by severity
phishing-report | Handle reported phishing emails: analyse, block and warn users. Use when an employee reports a suspicious email, credentials may have been entered on a fake page, or a phishing campaign targets staff. | suspicious email, credentials | Check sender, links and attachments in a sandbox; Block the sender and URLs; Reset passwords of users who clicked
access-review | Run quarterly access reviews of who can reach which systems. Use when the access review is due, auditors ask for evidence, or someone changed roles. | permissions, least privilege | Export users and roles per system; Ask managers to confirm each access; Remove access not confirmed
pentest-scope | Scope and prepare an external penetration test. Use when planning a pentest, a customer requires a pentest report, or a new product must be tested. | penetration test, red team | Define targets and out-of-scope systems; Agree on test windows; Set up test accounts
sql-injection-check | Check code and endpoints for SQL injection and fix it with parameterised queries. Use when reviewing database code, a scanner flags SQL injection, or user input reaches queries. | injection, owasp | Search for string-built queries; Replace them with parameterised queries; Add a test with malicious input
incident-forensics | Collect forensic evidence after a security incident without destroying it. Use when a breach is suspected, a server may be compromised, or evidence must be preserved. | breach, compromise, evidence | Isolate the host from the network; Take memory and disk images; Keep a chain of custody log
security-questionnaire | Answer customer security questionnaires (SIG, CAIQ) from the trust center. Use when a customer sends a security questionnaire, procurement asks about our controls, or SOC 2 evidence is requested. | soc 2, caiq, vendor assessment | Reuse answers from the answer library; Attach the SOC 2 report under NDA; Flag questions that need the security team
password-policy | Set and explain the password and MFA policy. Use when users ask about password rules, enabling multi-factor authentication, or a policy review is due. | mfa, 2fa, authentication | Require 12 or more characters; Enforce MFA on every account; Block known breached passwords
sbom-generation | Generate a software bill of materials (SBOM) for a release in CycloneDX or SPDX. Use when a customer asks for an SBOM, preparing a release, or tracking components for vulnerabilities. | cyclonedx, spdx, components | Generate the SBOM in CI from the lockfiles; Attach it to the release; Store it for vulnerability matching
# data
@ data | community | meta
csv-cleaner | Clean messy CSV files: normalise headers, trim whitespace, drop empty and duplicate rows, and convert the delimiter. Use when a CSV export will not import, has odd column names, or needs tidying before analysis. | csv, spreadsheet, import | Lower-case headers and replace spaces with underscores; Trim whitespace in every cell; Drop exact duplicate rows
sql-query-helper | Write and explain SQL queries with joins, window functions and aggregations. Use when someone needs a query written, a query returns wrong results, or a query must be explained. | sql, joins, window functions | Start from the grain of the result; Join on keys and check row counts; Use window functions for running totals
dashboard-spec | Specify a BI dashboard: audience, metrics, filters and layout. Use when someone asks for a new dashboard, a dashboard is unused, or metrics must be defined. | bi, looker, tableau | Start from the decisions the dashboard supports; Define each metric precisely; Put the most important number top left
data-dictionary | Document tables and columns in a data dictionary. Use when a dataset has no documentation, analysts misunderstand a column, or onboarding new analysts. | documentation, schema, columns | Describe each table's grain; Document each column's meaning and units; Note known data issues
anomaly-detection | Detect anomalies and outliers in metrics and time series. Use when a metric suddenly spikes or drops, alerts are needed on KPIs, or outliers distort a report. | outliers, spikes, alerts | Plot the series with its seasonal pattern; Flag points beyond three standard deviations; Check for data pipeline problems first
cohort-analysis | Analyse retention by signup cohort. Use when measuring customer retention, comparing user groups over time, or churn must be understood. | retention, churn, cohorts | Group users by signup month; Compute the share active in each later month; Plot the retention curves
etl-job-debug | Debug failing ETL and data pipeline jobs in Airflow or dbt. Use when a nightly job fails, tables are stale, or dbt models break. | airflow, dbt, pipeline | Read the failed task's log; Check upstream table freshness; Re-run only the failed tasks
data-quality-checks | Add data quality tests for nulls, uniqueness and freshness. Use when bad data reaches reports, a new table is created, or stakeholders lose trust in numbers. | validation, great expectations | Test primary keys for uniqueness; Check null rates on required columns; Alert on late data
pivot-table-excel | Build pivot tables and charts in Excel or Google Sheets. Use when summarising a spreadsheet, someone needs totals by category, or a quick report from raw rows is needed. | excel, google sheets, spreadsheet | Convert the range to a table first; Put categories in rows and measures in values; Add slicers for filters
timeseries-forecast | Forecast a time series such as sales or demand with seasonal models. Use when planning next quarter's demand, predicting sales, or setting targets from history. | forecasting, prophet, seasonality | Check for seasonality and trend; Hold out the last period to test accuracy; Report forecasts with intervals
# documents
@ documents | community | meta
pdf-processing | Extract text and form fields from PDF files, fill PDF forms, and merge or split documents. Use when the user provides a PDF, asks to read or fill a form, or needs pages combined. | pdf, forms | Extract text page by page with the bundled script; List fillable form fields as JSON; Merge files in the given order
docx-templates | Fill Word (.docx) templates with data and keep the formatting. Use when generating letters or contracts from a template, mail merge is needed, or a Word document must be produced. | word, mail merge | Use content controls as placeholders; Keep styles from the template; Export a PDF copy when asked
spreadsheet-formulas | Write and fix spreadsheet formulas like VLOOKUP, XLOOKUP and SUMIFS. Use when a formula returns an error, a lookup across sheets is needed, or calculations must be automated in Excel. | excel, vlookup, formulas | Prefer XLOOKUP over VLOOKUP; Lock ranges with absolute references; Check for #N/A errors
slide-deck | Build a clear presentation deck with one message per slide. Use when preparing a presentation, turning a document into slides, or a pitch deck is needed. | powerpoint, presentation, slides | Write the storyline as headlines first; One message per slide; Move details to the appendix
ocr-scans | Turn scanned documents and images into searchable text with OCR. Use when a document is a scan, text cannot be selected in a PDF, or receipts must be digitised. | ocr, scanned, tesseract | Deskew and clean the image; Run OCR with the right language; Check numbers by hand
meeting-notes | Turn a meeting transcript or rough notes into a short summary with decisions, action items and owners. Use after a meeting, when the user pastes a transcript, or when asked to write up minutes. | minutes, action items, transcript | Summarise in three to five sentences; List decisions with reasons; List action items with owner and due date
translation-review | Review translations for accuracy, tone and terminology. Use when a translated text must be checked, localising the product, or a glossary must be applied. | localization, i18n, glossary | Compare source and target sentence by sentence; Apply the glossary terms; Flag culturally odd phrasing
style-guide-check | Check a document against the company writing style guide. Use when editing a draft, a document will be published, or writing is inconsistent. | writing style, editing | Check spelling variant and capitalisation; Replace jargon; Use sentence case in headings
diagram-mermaid | Draw flowcharts, sequence diagrams and architecture diagrams in Mermaid. Use when a process or system needs a diagram, documentation needs visuals, or a whiteboard sketch must be cleaned up. | mermaid, flowchart, sequence diagram | Pick the diagram type for the question; Keep labels short; Render and check the diagram
# product
@ product | acme/product | folder
prd-writer | Write a product requirements document (PRD) with problem, goals and scope. Use when starting a new feature, aligning engineering and design, or a one-pager is needed. | requirements, one-pager, spec | State the user problem and evidence; Define goals and non-goals; List requirements by priority
user-story-splitting | Split large user stories into small vertical slices. Use when a story is too big for a sprint, estimates are huge, or the backlog needs refinement. | agile, backlog, scrum | Split by workflow step or data variation; Keep each slice valuable on its own; Write acceptance criteria
roadmap-prioritization | Prioritise the roadmap with RICE or impact versus effort. Use when too many ideas compete, planning the next quarter, or stakeholders disagree on priorities. | rice, prioritisation, planning | Score reach, impact, confidence and effort; Compare scores, then sanity-check; Communicate what is not on the roadmap
user-interview-synthesis | Synthesise user interview notes into themes and insights. Use when interviews are done, research findings must be shared, or many notes need making sense of. | research, affinity mapping | Tag notes with observations; Cluster tags into themes; Write insights with quotes
feature-request-triage | Triage incoming feature requests and link them to problems. Use when customers ask for features, sales forwards requests, or the request backlog grows. | requests, feedback | Record the underlying problem, not the solution; Link duplicates; Reply with honest expectations
launch-checklist | Run a product launch checklist across docs, support, marketing and sales. Use when a feature is about to launch, a launch date is set, or teams need to be ready. | go to market, launch | Confirm docs and help articles are ready; Train support and sales; Plan the announcement
okr-drafting | Draft objectives and key results for a team quarter. Use when planning OKRs, goals are vague, or key results are not measurable. | okrs, goals, quarterly planning | Write an inspiring objective; Make key results measurable outcomes; Limit to three objectives
competitive-analysis | Analyse competitors' products, pricing and positioning. Use when entering a market, a competitor launches something, or positioning must be sharpened. | competitors, market, positioning | Compare features and pricing in a table; Read reviews for strengths and weaknesses; Summarise implications
jobs-to-be-done | Frame product opportunities with jobs-to-be-done. Use when understanding why customers buy, designing a new product, or interviews need a framework. | jtbd, customer needs | Write the job statement; Map the steps of the job; Find underserved outcomes
# design
@ design | community | fm
accessibility-audit | Audit pages and components for accessibility against WCAG 2.2 AA. Use when checking colour contrast, keyboard navigation or screen reader support, or before a release. | a11y, wcag, screen reader | Check colour contrast ratios; Navigate with the keyboard only; Test with a screen reader
design-tokens | Define and maintain design tokens for colour, spacing and typography. Use when building a design system, themes are inconsistent, or dark mode is added. | design system, theming | Name tokens by purpose, not value; Keep one source of truth; Generate platform files from tokens
figma-handoff | Prepare Figma files for developer handoff with specs and assets. Use when a design is ready for development, developers ask for measurements, or assets must be exported. | figma, specs, assets | Name layers and components; Mark interactions and states; Export assets in the right formats
color-palette | Create an accessible colour palette with primary, neutral and semantic colours. Use when starting a brand or UI, colours clash, or contrast fails. | colors, brand | Pick a primary and derive shades; Check text contrast on each background; Define success, warning and error colours
ux-copy | Write interface microcopy: buttons, errors and empty states. Use when labelling buttons, error messages confuse users, or empty states need text. | microcopy, ui text, error messages | Say what happens, in the user's words; Explain how to fix errors; Keep buttons to verbs
usability-test-plan | Plan and run a moderated usability test. Use when validating a prototype, users struggle with a flow, or a redesign must be tested. | user testing, prototype | Write tasks, not questions; Recruit five participants per segment; Note where users hesitate
responsive-layout-review | Review layouts on mobile, tablet and desktop breakpoints. Use when a page breaks on small screens, designing responsive components, or QA finds layout bugs. | breakpoints, mobile layout, css | Check each breakpoint; Avoid fixed widths; Test long text and translations
icon-set | Design or choose a consistent icon set. Use when icons look mismatched, new icons are needed, or an icon library must be picked. | icons, svg | Keep one stroke width and grid; Provide SVG and accessible labels; Document usage
# operations
@ operations | acme/ops | folder
incident-response | Run the first hour of a production incident: declare it, gather logs, communicate status, and hand over cleanly. Use when an alert fires, customers report an outage, or someone asks to start an incident. | outage, sev1, incident | Declare the incident and pick a severity; Assign an incident lead and a scribe; Post status updates every 30 minutes
postmortem | Write a blameless postmortem with timeline, root cause and action items. Use when an incident is resolved, leadership asks what happened, or the postmortem meeting is scheduled. | root cause, blameless, retrospective | Build the timeline from logs and chat; Ask why five times to reach causes; Assign action items with owners
status-page-update | Write status page updates during an outage or degraded service. Use when customers are affected by an incident, the status page must be updated, or an outage is resolved. | statuspage, customers, outage communication | Say what is affected in plain words; Give the next update time; Post the resolution with a short summary
runbook-writer | Write operational runbooks for alerts and routine tasks. Use when an alert has no runbook, on-call engineers repeat manual steps, or a procedure must be documented. | runbook, alerts, procedures | One runbook per alert; Start with how to check impact; Include copy-paste commands
capacity-planning | Plan capacity for compute, storage and traffic growth. Use when usage grows fast, a big launch is coming, or resources run close to limits. | scaling, growth, forecast | Measure current peak usage; Project growth for six months; Plan headroom of 30 percent
sla-report | Report monthly availability against the customer SLA and compute service credits. Use when the monthly uptime report is due, a customer claims SLA credits, or availability dropped. | uptime, availability, service credits | Compute uptime from the monitoring data; Exclude planned maintenance; Calculate credits per the SLA table
# it
@ it | acme/it | folder
laptop-setup | Set up a new laptop with standard apps, encryption and device management. Use when a new employee needs a laptop, a laptop is replaced, or a machine must be reinstalled. | macbook, device, encryption | Enroll the device in MDM; Turn on disk encryption; Install the standard app bundle
vpn-troubleshooting | Fix VPN connection problems for remote employees. Use when the VPN will not connect, connections drop, or internal sites do not load from home. | vpn, remote access, network | Check the client version; Test the internet connection without VPN; Re-import the VPN profile
password-reset | Reset passwords and unlock accounts safely after verifying identity. Use when a user is locked out, forgot their password, or MFA device was lost. | locked out, account unlock | Verify identity with the second channel; Reset and force a change at next login; Re-enroll MFA when the device was lost
software-request | Handle requests for new software licenses and installs. Use when an employee asks for a tool, a license must be assigned, or software needs approval. | licenses, apps | Check the approved software catalog; Get manager approval for paid tools; Assign the license and record it
shared-drive-permissions | Manage shared drive and folder permissions in Google Drive or SharePoint. Use when someone cannot open a folder, access must be granted or removed, or files are shared too widely. | google drive, sharepoint, access | Grant access to groups, not individuals; Remove public links; Review owners of shared drives
email-migration | Migrate mailboxes between email providers with minimal disruption. Use when moving to Google Workspace or Microsoft 365, merging domains, or mailboxes must be moved. | mailbox, microsoft 365, google workspace | Migrate historic mail before the cut-over; Switch MX records out of hours; Keep the old system read-only for a month
# procurement
@ procurement | community | meta
vendor-onboarding | Onboard a new vendor: due diligence, contract and setup in the finance system. Use when buying from a new supplier, a vendor needs to be added, or vendor details change. | supplier, due diligence | Collect company and bank details; Run the vendor risk check; Create the vendor in the ERP
rfp-response | Answer requests for proposal (RFPs) with a compliant, winning response. Use when a customer sends an RFP or tender, a bid deadline approaches, or answers must be reused. | tender, bid, proposal | Build a compliance matrix from the requirements; Reuse approved answers; Get a final review before the deadline
supplier-risk | Assess supplier risk: financial, security and concentration. Use when a critical supplier is added, a supplier shows signs of trouble, or the annual risk review is due. | third party risk, vendor risk | Rate financial health and dependency; Check security certifications; Plan alternatives for critical suppliers
contract-renewals | Track vendor contract renewals and notice periods to avoid auto-renewals. Use when a vendor contract ends soon, deciding to renew or cancel, or notice must be given. | auto-renewal, notice period | Keep a register of end dates and notice periods; Review usage before renewing; Give written notice in time
# research
@ research | community | meta
literature-review | Conduct a structured literature review with search strings and a synthesis table. Use when starting research on a topic, summarising academic papers, or finding the state of the art. | papers, academic, synthesis | Define search strings and databases; Screen titles and abstracts; Summarise findings in a table
citation-formatter | Format citations and bibliographies in APA, MLA or Chicago style. Use when references must follow a style, a bibliography is messy, or citing a source correctly. | apa, mla, bibliography | Identify the source type; Apply the style's order and punctuation; Sort the reference list
grant-proposal | Write a research grant proposal with aims, methods and budget. Use when applying for funding, a grant call opens, or a proposal must be revised. | funding, research proposal | Follow the funder's template; State specific aims; Justify every budget line
abstract-writer | Write a concise abstract for a paper or talk. Use when submitting a paper or conference talk, an abstract exceeds the word limit, or a summary for experts is needed. | paper, conference | State the problem, method, result and implication; Stay within the word limit; Avoid citations
peer-review-response | Respond to peer reviewers point by point. Use when a paper comes back with reviews, revising a manuscript, or reviewer comments must be answered. | reviewers, manuscript, revision | Quote each comment; Answer politely with the change made; Mark changes in the manuscript
# education
@ education | community | meta
course-outline | Design a course outline with modules, objectives and assessments. Use when creating a new course or training, restructuring a curriculum, or planning a workshop series. | curriculum, syllabus | Write objectives per module; Sequence from basics to advanced; Plan assessments for each objective
quiz-generator | Generate quiz questions with answers from lesson material. Use when a lesson needs a knowledge check, making multiple-choice questions, or preparing an exam. | multiple choice, exam, assessment | Write questions for each objective; Use plausible distractors; Provide an answer key with explanations
workshop-facilitation | Facilitate a workshop with an agenda, exercises and timeboxes. Use when running a workshop or brainstorm, a team meeting needs structure, or a retrospective must be facilitated. | facilitation, brainstorming | Share the goal and agenda upfront; Timebox each exercise; Capture outcomes and next steps
lesson-plan | Write a lesson plan with warm-up, activities and wrap-up. Use when preparing a class, a substitute teacher needs a plan, or a lesson must fit a time slot. | teaching, classroom | Start with a warm-up activity; Alternate explanation and practice; End with a summary question
# productivity
@ productivity | community | meta
weekly-review | Run a personal weekly review: inbox, calendar, projects and priorities. Use at the end of the week, when feeling overwhelmed, or planning the next week. | gtd, planning | Empty the inboxes; Review last and next week's calendar; Pick three priorities
email-triage | Triage an overflowing inbox to zero with rules and batching. Use when the inbox is overflowing, emails are missed, or setting up filters. | inbox zero, filters | Archive anything that needs no action; Reply now if it takes two minutes; Create filters for newsletters
meeting-agenda | Write a meeting agenda with goals, topics and time per item. Use when scheduling a meeting, meetings run over time, or attendees need to prepare. | agenda, meetings | State the meeting's goal; Give each topic an owner and time; Send it a day before
calendar-scheduling | Find meeting times across time zones and book them. Use when scheduling with people in other time zones, a calendar is double-booked, or recurring meetings must be set up. | time zones, booking | Check working hours in each time zone; Offer three slots; Add video link and agenda
travel-planning | Plan business travel: flights, hotel and itinerary within the travel policy. Use when booking a business trip, a trip needs an itinerary, or travel costs must stay within policy. | business trip, flights, hotel | Book through the travel tool; Stay within the hotel rate limit; Share the itinerary with the team
decision-log | Record decisions with context, options and rationale. Use when a team makes an important decision, decisions keep being revisited, or an architecture decision record is needed. | adr, decisions | Write the context and options; State the decision and why; Date it and name the decider
# ecommerce
@ ecommerce | community | meta
product-descriptions | Write product descriptions for an online shop that sell and rank. Use when adding products to the shop, descriptions are thin, or product pages convert poorly. | shop, catalog, copywriting | Lead with the main benefit; List specifications in bullets; Use the keywords shoppers search for
inventory-reorder | Decide when and how much stock to reorder. Use when stock runs low, planning purchases for a season, or stockouts happen. | stock, stockout, reorder point | Compute the reorder point from lead time and demand; Add safety stock; Place the purchase order
shipping-delays | Handle shipping delays and lost parcels with customers and carriers. Use when an order is late, a parcel is lost, or a carrier has delays. | delivery, carrier, parcel | Check tracking with the carrier; Inform the customer with a new date; Reship or refund lost parcels
returns-processing | Process product returns and exchanges in the shop. Use when a shopper wants to return an item, an exchange is requested, or returned goods arrive at the warehouse. | rma, exchange, return label | Check the return window; Send a prepaid return label; Inspect goods before refunding
marketplace-listing | List products on Amazon and other marketplaces with correct attributes. Use when selling on a new marketplace, a listing is suppressed, or attributes are rejected. | amazon, listings | Map product attributes to the marketplace schema; Upload images that meet the rules; Fix suppressed listings
promo-codes | Create discount and promo codes with limits and tracking. Use when running a sale, a partner needs a code, or a code is being abused. | discount code, coupon, sale | Set an expiry date and usage limit; Exclude sale items if needed; Track redemptions per channel
refunds | Handle refund requests for marketplace purchases: check the seller's refund window, open the refund and reply to the buyer. Use when a buyer asks to return a plugin, theme or template bought on the marketplace. | marketplace, buyer | Look up the order and the seller's refund window; Open the refund inside the window; Forward requests outside the window to the seller
# communications
@ communications | community | meta
internal-announcement | Write internal announcements for company news and changes. Use when announcing a reorganisation, a new policy, or company news to employees. | all hands, staff | Lead with what changes and when; Explain why; Say where to ask questions
exec-summary | Write an executive summary of a long report or project. Use when leadership needs a short version, a report is too long, or a decision must be requested. | summary, leadership | Start with the recommendation; Give three supporting points; State the decision needed
crisis-communication | Communicate during a crisis with customers, staff and press. Use when something goes badly wrong publicly, a data breach must be disclosed, or press inquiries arrive. | crisis, press, breach disclosure | Agree on one spokesperson; Say what happened, what we do and what people should do; Update regularly
translate-text | Translate text between English, German, French and Spanish with the company glossary. Use when a message or document must be translated, a customer writes in another language, or content must be localised. | translation, german, french, spanish | Keep the meaning, not the word order; Use the glossary for product terms; Ask a native speaker for external texts
speech-writer | Write speeches and talking points for events. Use when an executive must speak at an event, a toast or keynote is needed, or talking points for an interview. | keynote, talking points | Open with a story; Make three points; Close with a call to action
# analytics
@ analytics | acme/growth | folder
event-tracking-plan | Write an analytics event tracking plan for GA4, Segment or Amplitude. Use when adding analytics to a feature, events are inconsistent, or a tracking plan must be reviewed. | ga4, segment, amplitude, events | Name events as object and action; Define properties per event; Test in the debug view
utm-builder | Build consistent UTM-tagged campaign links. Use when sharing campaign links, traffic shows up as direct, or UTM naming is messy. | utm, campaign links, tracking | Use lower case for every parameter; Set source, medium and campaign; Shorten links after tagging
funnel-analysis | Analyse conversion funnels to find where users drop off. Use when conversion drops, a signup or checkout flow leaks, or experiments need a baseline. | conversion, drop-off, checkout | Define the funnel steps; Compute step conversion rates; Segment by device and channel
ga4-setup | Set up Google Analytics 4 properties, data streams and conversions. Use when creating a GA4 property, migrating from Universal Analytics, or conversions are not recorded. | google analytics, ga4, gtag | Create the property and web data stream; Install the tag with the tag manager; Mark key events as conversions
# mobile
@ mobile | acme/mobile | folder
app-store-submission | Submit iOS and Android apps to the App Store and Google Play and handle rejections. Use when releasing a new app version, the app was rejected in review, or store listings must be updated. | ios, android, app review | Check the review guidelines; Prepare screenshots and release notes; Answer rejections in the resolution center
crash-report-triage | Triage mobile crash reports from Crashlytics or Sentry. Use when crash rates rise, a release crashes on startup, or crash reports pile up. | crashlytics, sentry, crashes | Group crashes by stack trace; Prioritise by users affected; Link crashes to releases
push-notification-copy | Write push notification copy that is timely and not annoying. Use when planning push notifications, open rates are low, or users disable notifications. | push, notifications, engagement | Keep it under 50 characters; Make it personal and timely; Cap notifications per week
mobile-release-train | Run the mobile release train with code freeze, QA and phased rollout. Use when preparing a mobile release, a hotfix is needed, or rollout must be halted. | release train, phased rollout | Freeze code on Monday; Run the regression checklist; Roll out to 10 percent first
# ai
@ ai | community | meta
prompt-engineering | Write and improve prompts for large language models with examples and constraints. Use when a prompt gives poor answers, building an LLM feature, or outputs must follow a format. | llm, prompts, chatgpt | State the role, task and format; Give examples of good output; Test prompts on tricky inputs
model-evaluation | Evaluate machine learning and LLM models with test sets and metrics. Use when comparing models, a model regresses, or deciding if a model is good enough to ship. | evaluation, metrics, benchmark | Build a representative test set; Choose metrics that match the task; Compare against a baseline
dataset-labeling | Plan data labelling with guidelines and quality control. Use when training data needs labels, annotators disagree, or a labelling vendor must be briefed. | annotation, labels, training data | Write labelling guidelines with examples; Measure agreement between annotators; Review a sample of labels
rag-pipeline | Build retrieval-augmented generation (RAG) with chunking, embeddings and a vector store. Use when an LLM must answer from company documents, answers hallucinate, or search over documents is needed. | retrieval, embeddings, vector database | Chunk documents by section; Embed chunks and store them in a vector index; Retrieve top chunks and cite them
fine-tuning-plan | Plan fine-tuning of a language model on company data. Use when prompting is not enough, a model must learn a style or task, or costs must drop with a smaller model. | fine-tune, training | Collect high-quality examples; Hold out an evaluation set; Compare with a prompted baseline
# media
@ media | vendor/media | folder
podcast-editing | Edit podcast episodes: cut filler, level audio and add intro music. Use when an episode recording is ready, audio levels are uneven, or show notes are needed. | audio, episode | Remove long pauses and filler words; Normalise loudness to -16 LUFS; Write show notes with timestamps
video-script | Write scripts for explainer and product videos with scenes and voice-over. Use when planning a video, a storyboard is needed, or a demo video must be narrated. | storyboard, voice-over, youtube | Hook the viewer in the first five seconds; Write voice-over per scene; Keep it under two minutes
subtitles-srt | Create and fix SRT subtitles with correct timing. Use when a video needs captions, subtitles are out of sync, or captions must be translated. | captions, srt, subtitles | Keep lines under 42 characters; Sync cues to speech; Export SRT and VTT
photo-retouching | Retouch product and portrait photos consistently. Use when product photos need cleanup, backgrounds must be removed, or images need a consistent look. | photos, images, background removal | Correct white balance first; Remove the background for product shots; Export web-sized copies
fact-checking | Fact-check claims in an article before publication. Use when an article makes factual claims, numbers need sources, or a quote must be verified. | verification, sources, journalism | List every checkable claim; Find a primary source for each; Flag claims that cannot be verified
stock-media-licensing | Check licences for stock photos, music and fonts before use. Use when using a stock image or track, a licence is unclear, or a takedown notice arrives. | licence, royalty free, copyright | Record the licence and source for each asset; Check commercial use rights; Keep proof of purchase
# facilities
@ facilities | vendor/facilities | folder
office-move | Plan an office move: timeline, vendors, IT and communication. Use when relocating the office, moving teams between floors, or a lease ends. | relocation, moving | Set the move date and freeze changes; Book movers and IT support; Label desks and equipment
health-safety-inspection | Run workplace health and safety inspections. Use when the quarterly safety inspection is due, a hazard is reported, or after an accident at work. | hse, hazards, workplace safety | Walk the site with the checklist; Photograph hazards; Assign fixes with deadlines
visitor-management | Register and host office visitors with badges and NDAs. Use when guests visit the office, a visitor needs access, or front desk procedures change. | guests, reception, badges | Pre-register visitors; Print badges at reception; Escort visitors in secure areas
fire-drill | Plan and run fire evacuation drills. Use when a fire drill is due, wardens need training, or evacuation times are too slow. | evacuation, emergency, wardens | Brief fire wardens; Time the evacuation; Report issues to facilities
# logistics
@ logistics | vendor/logistics | folder
route-planning | Plan delivery routes for drivers to cut distance and time. Use when planning daily deliveries, routes are inefficient, or a new depot opens. | delivery routes, drivers | Group stops by area; Respect delivery time windows; Balance stops across drivers
customs-declaration | Prepare customs declarations with HS codes and commercial invoices. Use when shipping goods across borders, a shipment is stuck in customs, or HS codes must be classified. | hs codes, import, export | Classify each product with its HS code; Attach the commercial invoice; Declare the incoterm and origin
warehouse-picking | Organise warehouse picking and packing for speed and accuracy. Use when orders ship late, picking errors rise, or the warehouse layout changes. | fulfillment, picking, packing | Batch orders by zone; Scan every item at packing; Place fast movers near packing
freight-quotes | Compare freight quotes for road, sea and air shipments. Use when shipping pallets or containers, choosing a forwarder, or freight costs rise. | freight forwarder, shipping costs | Request quotes with the same specs; Compare transit time and total cost; Check insurance terms
# customer success
@ customer-success | acme/success | folder
customer-onboarding | Onboard new SaaS customers to first value with a kickoff and success plan. Use when a new customer signs, a kickoff call is booked, or adoption is slow in the first 90 days. | kickoff, adoption, success plan | Run a kickoff to agree on goals; Configure the account with the customer; Check usage weekly for 90 days
health-score | Define and monitor customer health scores. Use when predicting churn, prioritising accounts, or health scores are not trusted. | customer health, churn prediction | Combine usage, support and sentiment signals; Weight signals by their link to churn; Review red accounts weekly
nps-survey | Run an NPS survey and follow up with detractors. Use when measuring loyalty, the quarterly NPS is due, or detractors need follow-up. | net promoter score, survey, detractors | Send the survey to active users; Tag comments by theme; Call detractors within a week
qbr-deck | Prepare a quarterly business review deck for a customer. Use when a QBR is scheduled, showing the value delivered, or renewal is coming. | quarterly business review, value | Show goals and results; Highlight usage trends; Propose next quarter's goals
# frontend
@ frontend | vendor/web | folder
react-component | Build accessible, reusable React components with props and tests. Use when creating a UI component, a component is too complex, or components must be shared. | react, jsx, components | Keep props small and typed; Handle loading and error states; Write tests with Testing Library
css-debugging | Debug CSS layout problems with flexbox and grid. Use when elements overlap, a layout breaks, or styles do not apply. | css, flexbox, grid | Inspect the box model; Check specificity and cascade; Reduce to a minimal example
web-performance | Improve page load speed and Core Web Vitals (LCP, CLS, INP). Use when pages load slowly, Lighthouse scores are low, or Core Web Vitals fail. | lighthouse, page speed, lcp | Measure with Lighthouse and field data; Optimise images and fonts; Defer non-critical scripts
typescript-migration | Migrate a JavaScript codebase to TypeScript step by step. Use when adding types to JavaScript, starting strict mode, or any types spread. | typescript, types | Enable allowJs and migrate file by file; Turn on strict mode gradually; Replace any with real types
storybook-stories | Write Storybook stories for components and their states. Use when documenting components, visual testing is needed, or designers review UI states. | storybook, ui states | Write one story per state; Add controls for props; Run visual regression tests
i18n-setup | Set up internationalisation in a web app with message files and locale formats. Use when the app must support several languages, strings are hard-coded, or dates and numbers must be localised. | internationalization, locales, messages | Extract strings into message files; Use ICU plural rules; Format dates and numbers per locale
# backend
@ backend | vendor/api | folder
rate-limiting | Add rate limiting to APIs with token buckets and clear errors. Use when an API is abused, clients hit limits, or protecting a service from overload. | throttling, 429, api limits | Choose limits per client and endpoint; Return 429 with Retry-After; Monitor limited requests
caching-strategy | Design caching with Redis or a CDN, with invalidation rules. Use when responses are slow, the database is overloaded, or stale data appears. | redis, cdn, cache invalidation | Cache reads that tolerate staleness; Set TTLs per data type; Invalidate on writes
message-queue | Use message queues like Kafka or RabbitMQ for async processing. Use when work must happen in the background, services must be decoupled, or messages are lost or duplicated. | kafka, rabbitmq, async | Make consumers idempotent; Use dead-letter queues; Monitor consumer lag
webhook-integration | Receive and send webhooks reliably with signatures and retries. Use when integrating with a service that sends webhooks, webhook deliveries fail, or events must be pushed to customers. | webhooks, callbacks, signatures | Verify the signature on every request; Respond fast and process async; Retry with backoff
oauth-integration | Integrate OAuth 2.0 and OpenID Connect login with third-party providers. Use when adding Sign in with Google, connecting to an API with OAuth, or tokens expire. | oauth, oidc, sso, login | Use the authorization code flow with PKCE; Store refresh tokens encrypted; Validate ID tokens
graphql-schema | Design GraphQL schemas with pagination and clear errors. Use when building a GraphQL API, queries are slow, or the schema grows messy. | graphql, resolvers | Use connections for pagination; Avoid N+1 queries with data loaders; Deprecate fields before removing
# qa
@ qa | vendor/qa | folder
test-plan | Write a test plan with scope, risks and test cases for a release. Use when a feature needs QA, planning a release test cycle, or stakeholders ask what is tested. | qa, test cases | List features in and out of scope; Rank risks; Write test cases for high risks first
load-testing | Load test services with k6 or JMeter to find capacity limits. Use when preparing for a traffic peak, performance requirements must be verified, or a service falls over under load. | k6, jmeter, stress test | Model realistic traffic; Ramp up until errors appear; Record throughput and latency percentiles
e2e-tests | Write end-to-end browser tests with Playwright or Cypress. Use when critical user flows need automated checks, UI regressions slip through, or E2E tests are flaky. | playwright, cypress, browser tests | Test the critical user journeys; Use stable selectors; Run in CI on every merge
bug-bash | Organise a bug bash before a release. Use when a big release needs broad testing, many people should try a feature, or bugs must be found quickly. | testing session, release | Prepare test accounts and areas; Timebox the session; Triage bugs right after
# writing
@ writing | community | meta
cover-letter | Write a tailored cover letter for a job application. Use when applying for a job, a cover letter is requested, or a generic letter must be tailored. | job application | Match your experience to the job's requirements; Keep it to one page; End with a call to action
linkedin-profile | Improve a LinkedIn profile headline, about section and experience. Use when job hunting, building a personal brand, or the profile is outdated. | linkedin, personal brand | Write a clear headline; Tell your story in the about section; Quantify achievements
blog-editing | Edit a blog post draft for clarity, structure and length. Use when a draft is too long, the argument is unclear, or a post needs a final edit. | editing, proofreading | Cut the first paragraph if it warms up; Shorten sentences; Check headings tell the story
code-review | Review Python code for style, typing and common bugs with ruff and mypy. Use when reviewing a Python pull request, code fails linting, or type hints are missing. | python, ruff, mypy | Run ruff and mypy first; Check error handling; Suggest idiomatic rewrites
# nonprofit
@ nonprofit | vendor/charity | folder
donor-thank-you | Write donor thank-you letters and receipts. Use when a donation arrives, a major donor must be thanked, or year-end tax receipts are due. | donors, donations, receipts | Thank within 48 hours; Say what the gift achieves; Include the tax receipt
volunteer-scheduling | Schedule volunteers for shifts and events. Use when planning an event that needs volunteers, shifts are uncovered, or volunteers cancel. | volunteers, shifts | Publish shifts with clear roles; Send reminders; Keep a standby list
fundraising-campaign | Plan a fundraising campaign with goals, channels and donor segments. Use when launching an appeal, year-end giving starts, or a campaign underperforms. | appeal, giving | Set a goal and deadline; Segment donors; Report progress publicly
# hospitality
@ hospitality | vendor/kitchen | folder
menu-costing | Cost restaurant menu items and set prices from recipes. Use when creating a menu, food costs rise, or dishes are not profitable. | food cost, recipes, pricing | Cost each ingredient per portion; Target a food cost percentage; Adjust prices or portions
allergen-matrix | Build an allergen matrix for menu dishes. Use when updating the menu, a guest asks about allergens, or an inspection requires allergen information. | allergens, gluten, food labelling | List the 14 allergens per dish; Check supplier specifications; Update when recipes change
`
