#!/usr/bin/env python3
"""Writes src/workload/dvdstore/words_data.cc: storebench's own DVD Store word lists.

Not run by the build; the generated file is committed as plain data. Re-run it only to change
the lists, knowing that this changes every generated database:

  apt-get install scowl
  python3 src/workload/dvdstore/data/make_words.py |
      clang-format --assume-filename=words_data.cc > src/workload/dvdstore/words_data.cc

Source: the SCOWL word lists of Debian package scowl (/usr/share/dict/scowl; sizes 10/20/35 are
the most common English words). The actor names are written out below. The selection is
deterministic: same inputs, same output.

  title words   1000 upper-case words of 4..9 letters from SCOWL sizes 10 and 20, without
                inflected forms, stop words, jargon or rude words, picked evenly over the
                alphabet, sorted.
  first names   200 common first names (the list below, less any that is also a last name).
  last names    200 common surnames (the list below).
  review words  4968 letters-only words, at most 14 characters: a few capitalised words, then
                per-length quotas filled from SCOWL sizes 10, 20, 35 in that order, so the mean
                length is about 5.6; sorted case-insensitively.
"""

import sys

SCOWL = "/usr/share/dict/scowl/english-words."

# Words full-text engines ignore (MySQL MyISAM/InnoDB defaults, PostgreSQL english) or that are
# not content words; title words and names avoid them so searches always have something to hit.
STOP_WORDS = set("""
a able about above according accordingly across actually after afterwards again against ain
all allow allows almost alone along already also although always am among amongst an and another
any anybody anyhow anyone anything anyway anyways anywhere apart appear appreciate appropriate
are aren around as aside ask asking associated at available away awfully be became because become
becomes becoming been before beforehand behind being believe below beside besides best better
between beyond both brief but by came can cannot cant cause causes certain certainly changes
clearly co com come comes concerning consequently consider considering contain containing
contains corresponding could course currently de definitely described despite did different do
does doing don done down downwards during each edu eg eight either else elsewhere en enough
entirely especially et etc even ever every everybody everyone everything everywhere ex exactly
example except far few fifth first five followed following follows for former formerly forth four
from further furthermore get gets getting given gives go goes going gone got gotten greetings had
happens hardly has have having he hello help hence her here hereafter hereby herein hereupon hers
herself hi him himself his hither hopefully how howbeit however i ie if ignored immediate in
inasmuch inc indeed indicate indicated indicates inner insofar instead into inward is it its
itself just keep keeps kept know known knows la last lately later latter latterly least less lest
let like liked likely little look looking looks ltd mainly many may maybe me mean meanwhile merely
might more moreover most mostly much must my myself name namely nd near nearly necessary need
needs neither never nevertheless new next nine no nobody non none noone nor normally not nothing
novel now nowhere obviously of off often oh ok okay old on once one ones only onto or other others
otherwise ought our ours ourselves out outside over overall own particular particularly per
perhaps placed please plus possible presumably probably provides que quite qv rather rd re really
reasonably regarding regardless regards relatively respectively right said same saw say saying
says second secondly see seeing seem seemed seeming seems seen self selves sensible sent serious
seriously seven several shall she should since six so some somebody somehow someone something
sometime sometimes somewhat somewhere soon sorry specified specify specifying still sub such sup
sure take taken tell tends th than thank thanks thanx that thats the their theirs them themselves
then thence there thereafter thereby therefore therein theres thereupon these they think third
this thorough thoroughly those though three through throughout thru thus to together too took
toward towards tried tries truly try trying twice two un und under unfortunately unless unlikely
until unto up upon us use used useful uses using usually value various very via viz vs want wants
was way we welcome well went were what whatever when whence whenever where whereafter whereas
whereby wherein whereupon wherever whether which while whither who whoever whole whom whose why
will willing wish with within without wonder would www yes yet you your yours yourself yourselves
zero
""".split())

# Kept out of every list: rude, sexual, violent or otherwise unsuitable for a demo catalogue.
BLOCKED = set("""
abortion abuse abused adult alcohol anal anus arse ass bastard bitch bomb bombs booze bra breast
breasts bum butt cancer cock condom corpse crap cult damn dead death dick dies dope drug drugs
drunk dying fag fart fat fetus fuck gay gays genocide gun guns hell hick homo idiot jew kill killed
killer killing kills lewd moron murder naked nazi negro nipple nude nudity orgy penis piss poop
porn puke pus puss racist rape raped retard rum satan screw semen sex sexual sexy shit slave slut
smut snot sperm stupid suck sucks suicide teat terror terrorist tit tits torture urine vagina
vomit weed whore wop bigot bugger coke heroin racism scum addict
""".split())

# Computer jargon and irregular verb forms: poor film-title words.
NOT_TITLES = set("""
algorithm analogue array assembler backup binary bitmap buffer bulletin byte bytes compile
compiler compute computer cursor data database datum debug default digital directory disc disk
domain ditto email eraser execute file filename format hardware header hexadecimal index input
integer interface internet kernel keyboard linear login loop macro memory modem module online
output packet parse parser password pixel printer printout processor program protocol queue
script server software subset syntax terminal upload usage utility vector version whilst
anyplace someplace collate typeset emulation keystroke syntactic notation node floppy mnemonic
spool prefix negate decode encode offset overflow verbose unread info pseudo sigma spigot ashcan
billfold goody graffito overlong overprice underlain duff fiver albeit smallish whichever thou
cleverer happier stronger younger faster safer cheaper
bible pope heresy sinful theology saint feminist lesbian drunken abusive insane cigarette toilet
explosive vandalism hypocrisy snobbery delusion victim violence alcoholic fascist extremist
sexuality murderer communism pregnant ethnic kidnap deity salvation debugger lisp bigger fairer
fuller greater larger longer nearer older smaller fewer worse sexist lunatic hypocrite
began begun bought broke broken caught dealt drawn drew eaten fell flew flown forgot forgotten
forgave gave grew grown held hung knew lain laid made meant paid ran rang sang sank sold sought
spent spoke spoken stood struck swam swore taught thrown threw told took tore torn wore woke won
worn wrote written
""".split())

FIRST_NAMES = """
AARON ABIGAIL ADAM ADRIAN ALAN ALBERT ALEXANDER ALICE ALLISON AMANDA AMBER AMELIA ANDREA ANDREW
ANGELA ANNA ANNIE ANTHONY ARTHUR ASHLEY AUDREY BARBARA BENJAMIN BETTY BEVERLY BONNIE BRANDON
BRENDA BRIAN BRITTANY BRUCE CAMERON CARL CAROL CAROLINE CATHERINE CHARLES CHARLOTTE CHLOE
CHRISTINA CHRISTOPHER CLAIRE CLARA COLIN CRAIG CYNTHIA DANIEL DANIELLE DAVID DEBORAH DENISE
DENNIS DIANA DIANE DONALD DONNA DORIS DOROTHY DYLAN EDWARD ELAINE ELEANOR ELIZABETH ELLA EMILY
EMMA ERIC ERICA ETHAN EUGENE EVELYN FIONA FRANCES FRANK FREDERICK GABRIEL GARY GEORGE GERALD
GLORIA GRACE HANNAH HAROLD HAZEL HEATHER HELEN HENRY HOLLY IRENE ISAAC ISABEL JACK JACOB
JACQUELINE JAMIE JANE JANET JASON JEFFREY JENNIFER JEREMY JESSICA JOAN JOEL JOHN JONATHAN JOSEPH
JOSHUA JOYCE JUDITH JULIA JULIAN JULIE JUSTIN KAREN KATHERINE KATHLEEN KEITH KENNETH KEVIN KYLE
LARRY LAURA LAUREN LEAH LEONARD LILY LINDA LISA LOGAN LOUIS LUCY LUKE MADISON MARGARET MARIA
MARIE MARILYN MARK MARTHA MARY MATTHEW MEGAN MELISSA MICHAEL MICHELLE MOLLY NANCY NATALIE NATHAN
NICHOLAS NICOLE NOAH NORMAN OLIVIA PAMELA PATRICIA PATRICK PAUL PAULA PETER PHILIP PHYLLIS
RACHEL RALPH RAYMOND REBECCA RICHARD ROBERT ROBIN ROGER RONALD ROSE RUTH SAMANTHA SAMUEL SANDRA
SARAH SEAN SHARON SHIRLEY SOPHIA STEPHANIE STEPHEN STEVEN SUSAN TERESA TIMOTHY TYLER VALERIE
VERONICA VICTOR VICTORIA VINCENT VIRGINIA WALTER WAYNE WENDY WILLIAM ZACHARY
""".split()

LAST_NAMES = """
ABBOTT ADAMS ALLEN ARMSTRONG ATKINS AUSTIN BAILEY BAKER BALDWIN BANKS BARKER BARNES BARRETT BECKER
BELL BENNETT BISHOP BLACK BOWEN BOYD BRADLEY BRENNAN BROOKS BROWN BRYANT BURKE BURNS BUTLER
CALDWELL CAMPBELL CARLSON CARPENTER CARROLL CARTER CHAMBERS CHANDLER CHAPMAN CLARKE COLEMAN COLLINS
COOPER CRAWFORD CUNNINGHAM DANIELS DAVIES DAWSON DIXON DOUGLAS DUNCAN DUNN EDWARDS ELLIOTT ELLIS
EVANS FERGUSON FISHER FLEMING FLETCHER FLORES FORD FOSTER FOWLER FRANKLIN FULLER GARCIA GARDNER
GIBSON GILBERT GORDON GRAHAM GRANT GREEN GREGORY GRIFFIN HALL HAMILTON HANSEN HARDY HARPER HARRIS
HARVEY HAWKINS HAYES HENDERSON HICKS HOLLAND HOLMES HOPKINS HOWARD HUDSON HUGHES HUNT HUNTER
JACKSON JAMES JENKINS JENSEN JOHNSON JORDAN KELLER KELLY KENNEDY KNIGHT LAMBERT LAWRENCE LAWSON
LEWIS LOPEZ LUCAS LYNCH MARSHALL MARTIN MASON MATTHEWS MAXWELL MCCARTHY MEYER MILLER MILLS MITCHELL
MONTGOMERY MOORE MORGAN MORRIS MURPHY MURRAY MYERS NELSON NEWMAN NICHOLS NORRIS OLSEN OWENS PALMER
PARKER PATTERSON PEARSON PERKINS PERRY PETERS PHILLIPS PIERCE PORTER POWELL PRICE QUINN RAMSEY REED
REYNOLDS RICHARDS RILEY RIVERA ROBERTS ROBINSON RODGERS ROGERS ROSS RUSSELL RYAN SANDERS SAUNDERS
SCHMIDT SCOTT SHAW SHELTON SIMMONS SIMPSON SMITH SNYDER SPENCER STEPHENS STEVENS STEWART SULLIVAN
SUTTON SWANSON TAYLOR THOMAS THOMPSON TUCKER TURNER WAGNER WALKER WALLACE WALSH WARD WARREN WATSON
WEAVER WEBB WELCH WELLS WEST WHEELER WHITE WILLIAMS WILSON WOOD WRIGHT YOUNG
""".split()

CAPITALISED = """
I January February March April May June July August September October November December Monday
Tuesday Wednesday Thursday Friday Saturday Sunday English French British American European
Spanish Italian German Japanese Christmas Halloween Easter Hollywood Broadway Oscar DVD
""".split()

# Review words per length (the capitalised words included); mean length about 5.6.
QUOTA = {1: 2, 2: 30, 3: 400, 4: 1150, 5: 1150, 6: 900, 7: 620, 8: 360, 9: 200, 10: 100,
         11: 45, 12: 20, 13: 10, 14: 5}


def read_lines(path):
    with open(path, "rt", encoding="latin-1") as f:
        return [line.strip() for line in f if line.strip()]


def evenly(items, n):
    assert len(items) >= n, (len(items), n)
    return [items[i * len(items) // n] for i in range(n)]


def scowl(size):
    return [w for w in read_lines(SCOWL + str(size)) if w.isascii() and w.isalpha() and w.islower()]


def title_words():
    pool = set(scowl(10)) | set(scowl(20))

    def superlative(w):
        return w.endswith("est") and any(
            stem in pool for stem in (w[:-3], w[:-2], w[:-4], w[:-4] + "y"))

    words = sorted(
        w for w in pool
        if 4 <= len(w) <= 9 and not w.endswith(("ly", "ing", "ed", "s")) and not superlative(w)
        and w not in STOP_WORDS and w not in BLOCKED and w not in NOT_TITLES)
    return [w.upper() for w in evenly(words, 1000)]


def first_names(last):
    names = sorted(n for n in set(FIRST_NAMES)
                   if n not in last and n.lower() not in STOP_WORDS and len(n) >= 4)
    return evenly(names, 200)


def review_words():
    chosen = list(CAPITALISED)
    taken = {w.lower() for w in chosen}
    quota = dict(QUOTA)
    for w in chosen:
        quota[len(w)] -= 1
    for size in (10, 20, 35):
        by_len = {}
        for w in sorted(set(scowl(size))):
            if len(w) <= 14 and w not in taken and w not in BLOCKED:
                by_len.setdefault(len(w), []).append(w)
        for length, words in sorted(by_len.items()):
            k = min(quota.get(length, 0), len(words))
            picked = evenly(words, k) if k else []
            chosen += picked
            taken.update(picked)
            quota[length] -= k
    # Top up (or trim) to exactly 4968 with the shortest remaining common words.
    if len(chosen) < 4968:
        spare = sorted((w for w in scowl(20) + scowl(35) if w not in taken and len(w) <= 14
                        and w not in BLOCKED), key=lambda w: (len(w), w))
        chosen += spare[:4968 - len(chosen)]
    chosen = chosen[:4968]
    return sorted(chosen, key=lambda w: (w.lower(), w))


def emit(name, words, out):
    out.write("const std::array<std::string_view, %d>& %s() {\n" % (len(words), name))
    out.write("  static constexpr std::array<std::string_view, %d> kWords = {\n" % len(words))
    line = "     "
    for w in words:
        item = ' "%s",' % w
        if len(line) + len(item) > 100:
            out.write(line + "\n")
            line = "     "
        line += item
    out.write(line + "\n")
    out.write("  };\n")
    out.write('  static_assert(!kWords.back().empty(), "list shorter than declared");\n')
    out.write("  return kWords;\n}\n\n")


def main():
    last = sorted(LAST_NAMES)
    assert len(set(last)) == 200, len(set(last))
    titles = title_words()
    first = first_names(set(last))
    reviews = review_words()
    for lst in (titles, first, last, reviews):
        assert len(set(lst)) == len(lst)
    assert len(reviews) == 4968
    out = sys.stdout
    out.write("""\
// Generated by src/workload/dvdstore/data/make_words.py; edit the script, not this file.
//
// storebench's own DVD Store word lists (spec §9.8). Title and review words are selected from
// SCOWL (Spell Checker Oriented Word Lists), under its notice:
//   SCOWL: Copyright 2000-2011 by Kevin Atkinson. Permission to use, copy, modify, distribute and
//   sell these word lists, the associated scripts, the output created from the scripts, and its
//   documentation for any purpose is hereby granted without fee, provided that the above
//   copyright notice appears in all copies and that both that copyright notice and this
//   permission notice appear in supporting documentation. Kevin Atkinson makes no
//   representations about the suitability of this array for any purpose. It is provided "as is"
//   without express or implied warranty.
// Review words: mean length %.2f characters.

#include "workload/dvdstore/words.h"

namespace sb::dvdstore {

""" % (sum(map(len, reviews)) / len(reviews)))
    emit("TitleWords", titles, out)
    emit("ActorFirstNames", first, out)
    emit("ActorLastNames", last, out)
    emit("ReviewWords", reviews, out)
    out.write("}  // namespace sb::dvdstore\n")


if __name__ == "__main__":
    main()
