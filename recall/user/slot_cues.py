"""The cues of :mod:`recall.user.slots`: per slot, an English and a Chinese pattern.

``STATEMENT`` says the user's value of a slot (strict: a topic word alone, like "work was
tiring", sets nothing); ``QUERY`` names the slot a question asks about (looser). Both are
case-insensitive alternations, compiled by :mod:`.slots`.
"""

from __future__ import annotations

from typing import Final

__all__ = ["QUERY", "STATEMENT"]

_JOBS_EN = (
    r"engineer|developer|programmer|designer|manager|analyst|scientist|researcher|teacher|"
    r"professor|nurse|doctor|lawyer|accountant|consultant|architect|director|lead|"
    r"writer|editor|journalist|intern|student|chef|barista|pharmacist|recruiter|founder|"
    r"product owner|marketer|salesperson|therapist|electrician|pilot|officer"
)
_JOBS_ZH = (
    r"工程师|程序员|设计师|经理|产品|运营|分析师|科学家|研究员|老师|教师|教授|护士|医生|律师|"
    r"会计|顾问|架构师|总监|主管|实习生|厨师|编辑|记者|销售|创业"
)

# Statement cues: what says the user's value of the slot (strict: a topic word alone, like
# "work was tiring", sets nothing).
STATEMENT: Final[dict[str, tuple[str, str]]] = {
    "home": (
        r"\b(?:live[sd]?|living) in\b|\bmov(?:ed|ing|e) (?:to|into|back|out|across)\b|"
        r"\brelocat\w*|\b(?:signed|sign) (?:the|a) lease\b|\bbased (?:in|out of)\b|"
        r"\b(?:new|our|my) (?:place|flat|apartment|house|home|condo)\b|\bhouse(?:-| )?hunting\b|"
        r"\bbought (?:a|an|our|my) (?:house|flat|apartment|condo)\b|\bhome is\b|"
        r"\brent(?:s|ed|ing)? (?:a|an|our|my)\b|\blandlord\b|"
        r"\bkeys to (?:our|my|the) (?:own |new )?(?:place|house|flat|apartment)\b|"
        r"\b(?:own|new) (?:house|flat|apartment|place) in\b|\bneighbou?rhood\b",
        r"住在|住进|搬到|搬去|搬回|搬家|搬过来|搬了|定居|安家|落户|租了.{0,8}(?:房|公寓)|买了.{0,8}(?:房|公寓)|新家|现在住|"
        r"家在|家住|回老家|房东|租约|一室|两室",
    ),
    "work": (
        r"\bwork(?:s|ed|ing)? (?:at|for) (?:(?-i:[A-Z])|an? (?:startup|company|firm|bank|agency|"
        r"hospital|school|university|studio|lab|consultancy|nonprofit)\b|the )|"
        r"\bjob (?:at|with)\b|\boffer (?:from|at)\b|"
        rf"\b(?:{_JOBS_EN})s? (?:at|for|with) (?-i:[A-Z])|"
        r"\bhired (?:by|at)\b|\bemployer\b|\bbadge\b|\bquit (?:my job|at)\b|\bresign\w*|"
        r"\blaid off\b|\bleft (?:my job|the company)\b|\bnew job\b|\bmy company\b|"
        r"\bstart(?:s|ing)? (?:at|monday|on monday|next week)\b|\bonboarding\b|\bnotice\b|"
        r"\bday job\b|\bfreelanc\w*|\bself-employed\b|\bbeen at (?-i:[A-Z])|"
        r"\b(?:first|last|second) (?:day|week|month) at (?-i:[A-Z])|\bnew team\b|"
        r"\b(?:manager|boss|team|colleagues|office) at (?-i:[A-Z])",
        r"在.{1,12}(?:上班|工作|任职)|去.{1,12}(?:上班|工作|入职)|入职|辞职|跳槽|离职|offer|新工作|换工作|"
        r"换了.{0,4}工作|被裁|裁员|公司上班|自由职业|创业|在.{1,10}(?:公司|集团|银行|医院|学校)|"
        r"在[^，。,；]{1,10}做|报到|开了一家|当老板|交接",
    ),
    "role": (
        rf"\bas an? (?:[\w-]+ ){{0,3}}(?:{_JOBS_EN})s?\b|\bpromot\w*|"
        rf"\bmy (?:title|role|position)\b|\bwork(?:s|ing)? as\b|"
        rf"\b(?:i'm|i am|is|am) (?:\w+ )?an? (?:[\w-]+ ){{0,3}}(?:{_JOBS_EN})\b|"
        r"\bteach(?:es|ing)?\b|\bswitched careers\b|\bcareer change\b",
        rf"(?:做|当|是|担任|成了|成为)(?:一名|一个|一位|个)?.{{0,8}}(?:{_JOBS_ZH})|升(?:职|为|到|了)|"
        r"职位|岗位|转岗|转行",
    ),
    "partner": (
        r"\bmarried\b|\bdating\b|\bbroke up\b|\bseeing (?:someone|(?-i:[A-Z]))|\bengaged\b|"
        r"\bdivorc\w*|\bsplit up\b|\bsingle again\b|\bmoved in with\b|"
        r"\bnew (?:partner|girlfriend|boyfriend)\b|"
        r"\b(?:partner|wife|husband|girlfriend|boyfriend|fianc[ée]e?)(?:'s name\b| is called\b|"
        r" is named\b)|\b(?:my|the user's|their) (?:partner|wife|husband|girlfriend|boyfriend|"
        r"fianc[ée]e?),? (?-i:[A-Z])|"
        r"\bmy ex\b|\bproposed\b",
        r"结婚|分手|离婚|在一起|订婚|脱单|单身|新(?:女朋友|男朋友|对象)|交了.{0,3}(?:女朋友|男朋友)|"
        r"(?:女朋友|男朋友|老婆|老公|对象|妻子|丈夫|爱人)(?:叫|的名字)|求婚|约会|前女友|前男友|异地恋|"
        r"(?:我|用户)的?(?:男朋友|女朋友|老公|老婆|丈夫|妻子)[\u4e00-\u9fff]{1,3}(?:是|在|特别|很|经常)",
    ),
    "transport": (
        r"\bcar\b|\bdriv(?:e|es|ing)\b|\bbik(?:e|es|ing)\b|\bbicycle\b|\bscooter\b|\bcommut\w*|"
        r"\bbus\b|\bsubway\b|\bmetro\b|\btram\b|\bmotorbike\b|\bmotorcycle\b|"
        r"\b(?:tesla|civic|corolla|prius|ioniq|golf|model [3ysx]|vespa|moped|e-bike)\b|"
        r"\b(?:the|a) (?:\d{1,2}:\d{2} )?train\b|\bride to\b",
        r"开车|买车|卖车|车子|汽车|电动车|自行车|单车|骑车|公交|地铁|通勤|摩托|打车|提车|新车|旧车|电车|"
        r"一辆|开的是|置换",
    ),
    "diet": (
        # A vegetarian restaurant or menu is a place, not the user's diet ("vegetarian food" is).
        r"\b(?:vegan|vegetarian|plant-based)\b(?!\s+(?:restaurants?|places?|caf[eé]s?|spots?|"
        r"menus?|cookbooks?|recipes?)\b)|"
        r"\bpescatarian\b|\bketo\b|\bdiet\b|"
        r"\beat(?:ing)? meat\b|\b(?:stopped|quit|no longer|don't|do not) eat\w*\b|\bgluten-free\b|"
        r"\bintermittent fasting\b|\bcarnivore\b|\beating window\b|\bcount(?:ing)? calories\b|"
        r"\bcalorie\w*|\bspicy food\b",
        r"吃素|素食(?![餐馆店菜谱])|纯素|不吃肉|吃肉|开始吃|戒糖|戒了|生酮|饮食|吃荤|轻断食|忌口|爱吃|吃辣|不能吃|不吃",
    ),
    "pet": (
        r"\b(?:dog|cat|puppy|kitten|parrot|hamster|rabbit|bunny|tortoise|turtle|goldfish|pet|bird|"
        r"greyhound|retriever|labrador|terrier|beagle|poodle|corgi)s?\b|\badopt\w*|\brehom\w*",
        r"狗|猫|宠物|鹦鹉|仓鼠|兔子|乌龟|金鱼|养了|金毛|柯基|泰迪|布偶|橘猫|鱼缸|热带鱼",
    ),
    "tools": (
        r"\b(?:vim|neovim|emacs|vs ?code|intellij|pycharm|sublime|editor|ide|macbook|thinkpad|"
        r"laptop|linux|ubuntu|windows|iphone|android|pixel|keyboard)\b|"
        r"\bswitched (?:to|from|over)\b|"
        r"\b(?:coding|programming|writing code) in\b|\blearning (?:rust|go|python|java|"
        r"typescript|kotlin|swift|c\+\+|haskell|elixir)\b|\b(?:notion|obsidian|evernote|"
        r"onenote|todoist|trello|slack|figma|excel|chrome|firefox)\b|\bnotes? app\b",
        r"编辑器|笔记本|电脑|手机|键盘|换成|写代码|编程|学.{0,2}(?:Rust|Go|Python|Java)|迁移到|迁到|"
        r"印象笔记|笔记|软件|App|app",
    ),
    "preference": (
        r"\bprefer\w*|\bbullet points?\b|\b(?:short|long|longer|shorter|detailed|concise|brief) "
        r"(?:answers|explanations|replies|responses)\b|\bfavou?rite\b|\b(?:coffee|tea|espresso|"
        r"latte|matcha)s?\b|\bcan't stand\b|\bgo-to\b|\bmusic\b|\bplaylist\b|\blo-fi\b|"
        r"\bclassical\b|\bjazz\b|\bpiano\b|\bpodcasts?\b",
        r"喜欢|偏好|更爱|咖啡|奶茶|茶|回答|简短|详细|受不了|美式|拿铁|音乐|歌单",
    ),
    "plans": (
        r"\bplan(?:s|ning)? to\b|\btrip to\b|\bvacation\b|\bholiday in\b|\btravel\w* to\b|"
        r"\bfly(?:ing)? to\b|\bbooked\b",
        r"打算|计划|准备去|旅行|旅游|去.{1,6}玩|机票|订了|出差",
    ),
}

# Question cues: looser, a question names its topic ("where do I live now?", "我开什么车").
QUERY: Final[dict[str, tuple[str, str]]] = {
    "home": (
        r"\blive\b|\bliving\b|\bhome\b|\bcity\b|\bmove[ds]?\b|\bflat\b|\bapartment\b",
        r"住|搬|城市|家在",
    ),
    "work": (
        r"\bwork\b|\bjob\b|\bcompany\b|\bemployer\b|\bworking\b|\bemployed\b|\bwork for\b",
        r"工作|公司|上班|单位",
    ),
    "role": (
        r"\brole\b|\btitle\b|\bposition\b|\bjob\b|\bdo for a living\b",
        r"职位|岗位|做什么|职业",
    ),
    "partner": (
        r"\bpartner\b|\bwife\b|\bhusband\b|\bgirlfriend\b|\bboyfriend\b|\bdating\b|\bspouse\b",
        r"对象|女朋友|男朋友|老婆|老公|伴侣|另一半",
    ),
    "transport": (
        r"\bcar\b|\bdrive\b|\bcommute\b|\bget (?:to|around)\b|\bbike\b|\btransport",
        r"车|通勤|上下班|出行|怎么去|坐什么|怎么上班",
    ),
    "diet": (
        r"\bdiet\b|\beat(?:ing)?\b|\bvegan\b|\bvegetarian\b|\bmeat\b|\bfood\b",
        r"吃|饮食|素",
    ),
    "pet": (r"\bpets?\b|\bdogs?\b|\bcats?\b|\banimals?\b", r"宠物|狗|猫"),
    "tools": (
        r"\beditor\b|\bide\b|\blaptop\b|\bphone\b|\btools?\b|\buse\b|\blanguage\b|\bcomputer\b",
        r"编辑器|电脑|手机|工具|用什么|语言",
    ),
    "preference": (
        r"\bprefer\w*|\blike\b|\bfavou?rite\b|\bcoffee\b|\btea\b|\banswers?\b|\bexplanations?\b|"
        r"\bdrink\b|\bmusic\b|\blisten\w*",
        r"喜欢|偏好|咖啡|茶|回答|喝|音乐|听",
    ),
    "plans": (
        r"\bplan\w*|\btrip\b|\bvacation\b|\btravel\w*|\bgoing\b|\bholiday\b",
        r"计划|打算|旅行|旅游|去哪",
    ),
}
