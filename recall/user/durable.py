"""Durable facts about a person: diet, allergies, health conditions, family, job (zh and en).

A sentence can tell a passing mood and a lasting fact at once ("I'm a bit nervous about the
dinner because I'm vegetarian", "我有点担心，因为我对芒果过敏"). The mood passes; the fact
must not pass with it. :func:`is_durable` recognises the fact whoever it is said of (the
user's "I", the article's "the user", the assistant's "you"), so the same test holds for a
summary's sentence and for one already in the article's voice, and
:func:`durable_clause` cuts such a sentence down to the clauses that carry the fact.

The patterns predicate the fact of someone ("I'm vegetarian", "the user has asthma", "my
husband Marco", "儿子叫豆豆"): a bare mention ("a vegetarian main", "抗过敏药", "Theo has a
fever") is not durable.
"""

from __future__ import annotations

import re

__all__ = [
    "ALLERGENS",
    "ALLERGENS_ZH",
    "JOBS",
    "JOBS_ZH",
    "SURNAMES",
    "durable_clause",
    "is_durable",
]

#: Occupations, as the last word of a job title (en) or its ending (zh);
#: recall.lifecycle.routing and article_facts.py read them too.
JOBS = (
    r"engineer|developer|programmer|scientist|analyst|designer|manager|teacher|professor|"
    r"lecturer|nurse|doctor|physician|surgeon|dentist|pharmacist|therapist|psychologist|"
    r"lawyer|attorney|accountant|architect|consultant|researcher|student|intern|founder|"
    r"co-founder|ceo|cto|cfo|coo|director|editor|writer|journalist|photographer|artist|"
    r"illustrator|musician|chef|cook|baker|pilot|driver|courier|mechanic|electrician|"
    r"plumber|carpenter|farmer|officer|clerk|cashier|barista|waiter|waitress|librarian|"
    r"translator|paralegal|recruiter|marketer|administrator|technician|veterinarian|vet|"
    r"postdoc|freelancer|contractor|sre|tester|entrepreneur|economist|statistician|"
    r"mathematician|physicist|chemist|biologist|coach|trainer|instructor|tutor|secretary|"
    r"specialist|strategist|producer|actor|dancer|singer|painter|firefighter|paramedic|"
    r"soldier|police officer|lead|partner|head of [\w ]+|vp of [\w ]+"
)
JOBS_ZH = (
    r"工程师|程序员|设计师|经理|老师|教师|教授|医生|护士|律师|会计|分析师|科学家|研究员|架构师|"
    r"运营|销售|记者|作家|编辑|摄影师|厨师|司机|学生|研究生|博士生?|本科生|实习生|创始人|合伙人|"
    r"老板|顾问|主管|总监|自由职业者?|法官|警察|军人|翻译|导游|主播|演员|歌手|画家|博主|讲师|"
    r"助理|秘书|客服|店主|[\u4e00-\u9fff](?:师|员|官)"
)
#: Common Chinese surnames: "我是张敏" names the user, "我是学生" does not
#: (recall.lifecycle.routing and article_facts.py read them).
SURNAMES = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶"
    "程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺"
    "顾毛郝龚邵万钱严覃武戴莫孔向汤"
)

ALLERGENS = (
    r"peanuts?|nuts|tree nuts|shellfish|seafood|shrimp|fish|gluten|wheat|lactose|dairy|milk|"
    r"eggs?|soy|sesame|penicillin|aspirin|ibuprofen|latex|pollen|dust|cats?|dogs?|bees?|"
    r"wasps?|mold|strawberries|kiwi|celery|mustard|sulfites|cashews?|almonds?|walnuts?|"
    r"pistachios?|hazelnuts?|pecans?|mangoes|mangos?|latex|nickel|sulfa|antibiotics|"
    r"bee stings?|mosquito bites|grass|ragweed|avocados?|bananas?|tomatoes|corn"
)
#: What people are allergic to, as the article names it (en and zh);
#: recall.lifecycle.routing reads them.
ALLERGENS_ZH = (
    r"花生|坚果|海鲜|虾|蟹|鱼|麸质|小麦|乳糖|牛奶|鸡蛋|大豆|芝麻|青霉素|阿司匹林|花粉|尘螨|猫毛|"
    r"狗毛|芒果|酒精|腰果|杏仁|核桃|榛子|猕猴桃|菠萝|桃子|柳絮|粉尘|螨虫|头孢|磺胺|乳胶"
)
# Who a fact is said of, in any of the voices a sentence can be in.
_WHO = r"(?:i|we|you|they|he|she|the user|user)"
_IS = r"(?:i'?m|i am|we'?re|we are|you'?re|you are|they'?re|they are|he'?s|she'?s|(?:the )?user is)"
_BEEN = r"(?:i'?ve|we'?ve|you'?ve|they'?ve|(?:the )?user'?s|(?:the )?user has) been"
_CONDITIONS = (
    r"asthma|diabetes|epilepsy|adhd|celiac disease|coeliac disease|crohn'?s|arthritis|"
    r"migraines|a heart condition|high blood pressure|hypertension|eczema|dyslexia|autism|"
    r"a nut allergy|a peanut allergy|an? \w+ allergy|allergies"
)
_DIETS = (
    r"vegetarian|vegan|pescatarian|celiac|coeliac|diabetic|lactose[- ]intolerant|"
    r"gluten[- ]intolerant|kosher|halal"
)
_KIN = (
    r"wife|husband|partner|spouse|fianc[ée]e?|boyfriend|girlfriend|son|daughter|kids?|"
    r"children|twins|baby|mum|mom|dad|mother|father|brother|sister|grandmother|grandfather|"
    r"grandma|grandpa|cat|dog|puppy|kitten"
)
_I = re.IGNORECASE
_DURABLE_EN = re.compile(
    "|".join(
        (
            rf"\ballergic to (?:{ALLERGENS})\b",
            rf"\b(?:{_IS}|{_BEEN}) (?:a |now |still |fully |strictly |mostly |also )*"
            rf"(?:{_DIETS})\b",
            rf"\b{_WHO} (?:eats?|went|(?:have|has) gone) (?:fully |strictly )?"
            r"(?:vegetarian|vegan)\b",
            r"\b(?:can'?t|cannot|don'?t|do not|doesn'?t|does not|never) eat (?:any )?"
            r"(?:meat|pork|beef|fish|seafood|shellfish|gluten|dairy|eggs|nuts|peanuts)\b",
            rf"\b{_WHO} (?:have|has|had|lives? with|was diagnosed with|were diagnosed with) "
            rf"(?:type [12] |mild |severe |chronic )?(?:{_CONDITIONS})\b",
            r"\b(?:my|your|their|his|her|the user'?s) (?:asthma|diabetes|epilepsy|adhd|"
            r"(?:\w+ )?allerg(?:y|ies)|eczema)\b",
            rf"\b(?:{_IS}) (?:happily |newly )?(?:married|divorced|engaged|widowed|separated)\b",
            rf"\b{_WHO} (?:have|has) (?:a|an|one|two|three|four|\d) (?:[\w-]+ ){{0,2}}"
            rf"(?:sons?|daughters?|kids?|children|twins|cats?|dogs?|grandchildren)\b",
            rf"\b{_WHO} (?:now |currently |still )?works? (?:as|at|for)\b",
            rf"\b{_IS} (?:now |currently |still |also )?(?:a|an) (?:[\w-]+ ){{0,3}}(?:{JOBS})\b",
            rf"\b(?:{_IS}) (?:(?:now |currently |still )?(?:a|an) )?(?:self-employed|retired|"
            r"unemployed|freelancing|on parental leave)\b",
        )
    ),
    _I,
)
# A relative by name: case matters for the name ("my husband Marco", "our cat, Pixel").
_NAMED_KIN = re.compile(
    rf"\b(?i:my|our|your|their|his|her|the user'?s) (?:[\w-]+ ){{0,2}}(?i:{_KIN})(?i:'s name is)?"
    r",? (?:(?i:is called|called|named) )?[A-Z][a-z]+"
    rf"|\b(?i:{_KIN}) (?i:called|named) [A-Z][a-z]+"
)
_DURABLE_ZH = re.compile(
    "|".join(
        (
            rf"对(?:{ALLERGENS_ZH})[^，。；！？]{{0,4}}过敏|(?:我|用户|你)(?:{ALLERGENS_ZH})过敏|"
            r"过敏体质",
            r"乳糖不耐|麸质不耐|吃素|素食者|吃全素|不吃(?:肉|猪肉|牛肉|荤|海鲜|辣)",
            r"糖尿病|高血压|哮喘|癫痫|心脏病|抑郁症|过敏性鼻炎|湿疹|痛风",
            r"(?:老公|老婆|丈夫|妻子|先生|太太|爱人|男朋友|女朋友)[\u4e00-\u9fff]{0,3}是",
            r"(?:儿子|女儿|孩子|宝宝|老公|老婆|猫|狗|狗狗|猫咪)(?:的名字)?叫[\u4e00-\u9fff]",
            r"有(?:一|两|二|三|\d)个(?:[\u4e00-\u9fff\d]{0,3}的)?(?:孩子|女儿|儿子)",
            r"养了(?:一|两|三|\d)(?:只|条)|(?:我|用户)(?:已经)?(?:结婚|离婚|单身)",
            r"(?:我|用户|你)(?:现在|目前|也|已经)?是(?:一名|一个|一位|个)?[^，。；,.;！？!?]{0,8}"
            rf"(?:{JOBS_ZH})",
            r"(?:我|用户|你)(?:现在|目前)?在[^，。；,.;！？!?]{1,15}(?:工作|上班|任职)",
            rf"(?:我|用户|你)(?:现在|目前)?(?:在[^，。；,.;！？!?]{{1,15}})?(?:做|当)(?:{JOBS_ZH})",
        )
    )
)
# Where a sentence may be cut into clauses: punctuation inside it, or a conjunction.
_CLAUSE_EN = re.compile(
    r"\s*[,;:—–]\s*|\s+-\s+|\s+(?=(?:because|since|so|but|and|although|though|while)\s)",
    _I,
)
_LEAD_EN = re.compile(r"^(?:because|since|so|but|and|although|though|while)\s+", _I)
_CLAUSE_ZH = re.compile(r"[，,；;：:、]")
_LEAD_ZH = re.compile(r"^(?:因为|所以|但是|但|而且|可是|不过|由于|并且|而)")


def is_durable(sentence: str, *, named: bool = True) -> bool:
    """True when ``sentence`` states a durable fact about someone: a diet, an allergy, a
    health condition, a family member or pet, a job (see the module docstring).
    ``named=False`` leaves out a relative merely named ("my sister Anna is visiting"): who
    they are lasts, but the sentence may be about a passing event."""
    return bool(
        _DURABLE_EN.search(sentence)
        or (named and _NAMED_KIN.search(sentence))
        or _DURABLE_ZH.search(sentence)
    )


def durable_clause(sentence: str) -> str:
    """The clauses of ``sentence`` that carry its durable facts, as a sentence of their own
    ("I'm a bit nervous because I'm vegetarian." → "I'm vegetarian."); ``sentence`` itself
    when no clause alone carries one."""
    text = sentence.strip()
    zh = _DURABLE_ZH.search(text) is not None and re.search(r"[\u4e00-\u9fff]", text)
    body = re.sub(r"[.!?。！？…]+[\"'”’)）]*$", "", text)
    if zh:
        parts = [_LEAD_ZH.sub("", p.strip()) for p in _CLAUSE_ZH.split(body)]
    else:
        parts = [_LEAD_EN.sub("", p.strip()) for p in _CLAUSE_EN.split(body)]
    kept = [p for p in parts if p and is_durable(p)]
    if not kept or len(kept) == len([p for p in parts if p]):
        return sentence
    if zh:
        return "，".join(kept) + "。"
    joined = " and ".join(kept)
    return joined[:1].upper() + joined[1:] + "."
