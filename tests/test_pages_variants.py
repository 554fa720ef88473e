"""Every ruleset in the UI: dashboard, rules page and checker under 二七王 and 双升 as well.

The assertions are written against the ruleset's fields (players, ranks, decks,
has_level, options, conflicts), so a fourth ruleset is tested the same way.
"""

from __future__ import annotations

import html as htmllib
import re

import pytest
from django.test import Client

from checker.engine.cards import Card, format_card
from checker.engine.ruleset import load_ruleset, ruleset_names
from checker.web import selfcheck

# The self-check page shows the latest stored simulation run.
pytestmark = pytest.mark.django_db

NAMES = ruleset_names()


@pytest.fixture
def client() -> Client:
    return Client()


def html(response) -> str:  # type: ignore[no-untyped-def]
    return response.content.decode()


def test_the_three_rulesets_exist() -> None:
    assert {"classic", "erqiwang", "shuangsheng"} <= set(NAMES)


# --- checker --------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_checker_form_follows_the_ruleset(client: Client, name: str) -> None:
    rs = load_ruleset(name)
    response = client.get(f"/check/?ruleset={name}")
    assert response.status_code == 200
    body = html(response)
    # The ruleset picker lists every ruleset, this one selected.
    for other in NAMES:
        assert f'<option value="{other}"' in body
    assert f'<option value="{name}" selected>' in body
    # The level selector only where the ruleset has a level rank.
    assert ('id="f-level"' in body) == rs.has_level
    # One hand and one play field per other player, no more.
    for seat in range(1, 6):
        assert (f'id="f-h{seat}"' in body) == (seat < rs.players)
        assert (f'id="f-p{seat}"' in body) == (seat < rs.players)
    # The grid offers exactly the deck's ranks, with counters up to the number of decks.
    cells = set(re.findall(r'data-card="([^"]+)"', body))
    expected = {format_card(Card(s, r)) for s in "SHCD" for r in rs.ranks}
    if rs.jokers:
        expected |= {"大王", "小王"}
    assert cells == expected
    assert f'data-decks="{rs.decks}"' in body
    assert f'data-ranks="{len(rs.ranks)}"' in body  # the CSS sets --ranks from it
    # Every option of the ruleset is explained next to the options field.
    for option in rs.option_specs:
        assert f"<code>{option}</code>" in body


def test_erqiwang_checker_has_no_3s_4s_level_or_fourth_hand(client: Client) -> None:
    body = html(client.get("/check/?ruleset=erqiwang"))
    assert 'id="f-level"' not in body
    for card in ("♠3", "♥3", "♣4", "♦4"):
        assert f'data-card="{card}"' not in body
    assert 'id="f-h2"' in body and 'id="f-h3"' not in body
    assert 'value="f-p2"' in body and 'value="f-h3"' not in body  # the grid target picker


def test_erqiwang_verdict_and_its_errors(client: Client) -> None:
    # With ♥ trump: ♥7 (正7) and ♠7 (副7) are adjacent tiers, so two pairs make a tractor.
    response = client.get("/check/?ruleset=erqiwang&trump=H&lead=S7+S7+H7+H7")
    assert response.status_code == 200
    assert "拖拉机" in html(response)
    # A level in the link is ignored where the ruleset has none.
    assert client.get("/check/?ruleset=erqiwang&level=9&trump=H&lead=SA").status_code == 200
    for query, field in (("lead=S3", "lead"), ("lead=SA&h3=SK", "h3"), ("lead=H4", "lead")):
        response = client.get("/check/?ruleset=erqiwang&trump=H&" + query)
        assert response.status_code == 400
        assert f'data-error-field="{field}"' in html(response)


def test_shuangsheng_checker_option(client: Client) -> None:
    body = html(client.get("/check/?ruleset=shuangsheng&options=flip_card:1&lead=SA"))
    assert 'id="f-level"' in body and 'id="f-h3"' in body
    assert 'value="flip_card:1"' in body
    response = client.get("/check/?ruleset=shuangsheng&options=climb:true&lead=SA")
    assert response.status_code == 400
    assert "climb" in html(response)


# --- rules pages ----------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_rules_page_shows_ladder_options_and_conflicts(client: Client, name: str) -> None:
    rs = load_ruleset(name)
    response = client.get(f"/rulesets/{name}/")
    assert response.status_code == 200
    body = htmllib.unescape(html(response))
    assert 'data-testid="ladder"' in body
    assert ('name="level"' in body) == rs.has_level
    for option in rs.option_specs:
        assert f"<code>{option}</code>" in body
    for conflict in rs.conflicts:
        assert conflict.strip()[:20] in body
    for other in NAMES:
        assert load_ruleset(other).title in body  # the picker


def test_erqiwang_rules_page(client: Client) -> None:
    body = html(client.get("/rulesets/erqiwang/?trump=H"))
    assert "是拖拉机：7 是主牌，不在副牌的点数序列里，8 和 6 在这门花色里相邻。" in body
    assert "不同花色的7、2也不成对" in body
    assert 'data-testid="chips-table"' in body and "爬坡" in body
    assert "算奖与亮牌" in body
    assert "只有用主牌赢下最后一墩才算抠底" in body
    assert "N 连对拖拉机" in body
    assert "无主时只有王和级牌是主" not in body
    # A level in the query is ignored where there is none.
    assert client.get("/rulesets/erqiwang/?level=5").status_code == 200


def test_shuangsheng_rules_page(client: Client) -> None:
    body = html(client.get("/rulesets/shuangsheng/?level=9&trump=H"))
    assert 'data-testid="flip-rule"' in body and "翻第 4 张" in body
    assert "增强对王反主时" not in body  # the same tiers either way: no second column
    assert "从闲家的得分里扣除" in body  # the sign of the failed-throw penalty
    assert "×64" in body
    # 双升 puts 2 between the level cards and the trump-suit A: ♥A pairs with ♠2, not ♠9.
    assert "是拖拉机：♥A 和 ♠2 在主牌梯子里相邻。" in body
    assert "♥A 和 ♠9 在主牌梯子里相邻" not in body


def test_classic_rules_page_keeps_the_enhanced_column(client: Client) -> None:
    body = html(client.get("/rulesets/classic/"))
    assert "增强对王反主时" in body
    assert "是拖拉机：♥A 和 ♠2 在主牌梯子里相邻。" in body
    assert "不是拖拉机：♥A 和 ♥2 之间隔着 ♠2 那一层。" in body


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("deal", ["level=2&trump=H", "level=9&trump=S", "level=A&trump=none"])
def test_rules_page_examples_agree_with_the_engine(client: Client, name: str, deal: str) -> None:
    """Every adjacency sentence is the engine's verdict on the four cards drawn next to it."""
    from checker.engine.combos import classify
    from checker.engine.order import make_context
    from checker.web import rulesdoc

    rs = load_ruleset(name)
    params = dict(p.split("=") for p in deal.split("&"))
    ctx = make_context(rs, params["level"] if rs.has_level else None, params["trump"])
    examples = rulesdoc._examples(rs, ctx)
    assert examples
    for ex in examples:
        cards = re.findall(r'title="([^"·]+?)(?: · [^"]*)?"', str(ex["html"]))
        from checker.engine.cards import parse_cards

        combo = classify(ctx, parse_cards(" ".join(cards)))
        assert str(ex["text"]).startswith("是拖拉机") == (combo.type == "tractor"), ex["text"]
    assert client.get(f"/rulesets/{name}/?{deal}").status_code == 200


# --- dashboard ------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_dashboard_of_each_ruleset(client: Client, name: str) -> None:
    run = selfcheck.get_run(name)
    response = client.get(f"/rulesets/{name}/selfcheck/")
    assert response.status_code == 200
    body = html(response)
    if run.seed is not None:
        assert f"种子自检 {run.seed.passed}/{run.seed.rows}" in body
        assert f"补充用例 {run.seed.extra_passed}/{run.seed.extra_total}" in body
    else:
        assert f"引擎自检 {run.passed}/{run.total}" in body
    # Failures and errors are rows; the passes are folded per category until opened.
    assert body.count('data-testid="case-row"') == run.failed + run.errors
    folded = re.findall(r"展开 (\d+) 个通过的用例", body)
    assert sum(int(n) for n in folded) == sum(r.status == "pass" for r in run.results)
    for other in NAMES:
        assert f'href="/rulesets/{other}/selfcheck/"' in body
    assert f'href="/rulesets/{name}/selfcheck/" aria-current="page"' in body


def test_dashboard_deal_has_no_level_where_there_is_none(client: Client) -> None:
    run = selfcheck.get_run("erqiwang")
    with_level = [r for r in run.results if (r.input or {}).get("level") is not None]
    if not with_level:
        pytest.skip("no 二七王 case carries a level")
    body = html(client.get("/rulesets/erqiwang/selfcheck/?q=" + with_level[0].id))
    row = re.search(rf'id="case-{re.escape(with_level[0].id)}".*?</tr>', body, re.S)
    assert row and "打" + str(with_level[0].input["level"]) not in row.group(0)


def test_dashboard_shows_case_options(client: Client) -> None:
    found = next(
        (
            (name, r)
            for name in NAMES
            for r in selfcheck.get_run(name).results
            if (r.input or {}).get("options")
        ),
        None,
    )
    if found is None:
        pytest.skip("no case sets options")
    name, result = found
    body = html(client.get(f"/rulesets/{name}/selfcheck/?q={result.id}"))
    key = next(iter(result.input["options"]))
    assert 'data-testid="case-options"' in body and f"<code>{key}:" in body


# --- navigation -----------------------------------------------------------------------


def test_nav_links_to_matrix_and_studies(client: Client) -> None:
    body = html(client.get("/"))
    assert '<a href="/matrix/">对照</a>' in body
    assert '<a href="/studies/">研究</a>' in body  # the studies page grew out of 模拟
    simulation = html(client.get("/simulation/"))
    assert '<a href="/studies/" aria-current="page">研究</a>' in simulation
    assert 'href="/studies/" data-testid="to-studies"' in simulation
