/**
 * What the catalog's admin screens call each entity and where its pages are: the list and editor
 * shells read it, so every screen says "New class", "All classes", "Class saved." the same way.
 */
export const ENTITY_META = {
  classes: { kind: 'class', noun: 'class', title: 'Class', plural: 'Classes', list: '/admin/class', detail: '/admin/class/$id', back: 'All classes' },
  textures: { kind: 'texture', noun: 'texture', title: 'Texture', plural: 'Textures', list: '/admin/textures', detail: '/admin/textures/$id', back: 'All textures' },
  architects: {
    kind: 'architect',
    noun: 'architect',
    title: 'Architect',
    plural: 'Architects',
    list: '/admin/architects',
    detail: '/admin/architects/$id',
    back: 'All architects',
  },
  cards: { kind: 'card', noun: 'card', title: 'Card', plural: 'Cards', list: '/admin/cards', detail: '/admin/cards/$id', back: 'All cards' },
} as const;
